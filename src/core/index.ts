export * from './dataset.js';
export * from './document.js';
export * from './errors.js';
export * from './jsonl.js';
export * from './jsonl-writer.js';
export * from './parse.js';
export * from './run.js';
export * from './verdict.js';
