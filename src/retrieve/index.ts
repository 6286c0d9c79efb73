export * from './eval/index.js';
