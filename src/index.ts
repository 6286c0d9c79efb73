/**
 * citegeist: the public library API. Each stage's index.ts is its public surface; this file
 * re-exports them. Test doubles live apart in `citegeist/testing`.
 */
export * from './answer/index.js';
export * from './core/index.js';
export * from './formats/index.js';
export * from './generate/index.js';
export * from './grade/index.js';
export * from './ingest/index.js';
export * from './io/index.js';
export * from './llm/index.js';
export * from './python-compat/index.js';
export * from './report/index.js';
export * from './retrieve/index.js';
export * from './stats/index.js';
export * from './store/index.js';
export * from './text/index.js';
export { VERSION } from './version.js';
