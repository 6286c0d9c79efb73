export * from './vetscore/index.js';
