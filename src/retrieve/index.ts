export * from './eval/index.js';
export * from './passages/index.js';
