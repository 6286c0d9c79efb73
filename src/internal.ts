/**
 * `citegeist/internal`: every stage's whole surface (each stage's index.ts), for tools built on
 * citegeist's parts. It follows the code and may change in any release; the stable entry points
 * are in `citegeist` (src/index.ts). Test doubles live apart in `citegeist/testing`.
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
export * from './queue/index.js';
export * from './report/index.js';
export * from './retrieve/index.js';
export * from './server/index.js';
export * from './stats/index.js';
export * from './store/index.js';
export * from './text/index.js';
export { VERSION } from './version.js';
