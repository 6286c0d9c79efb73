export * from './qasper/index.js';
