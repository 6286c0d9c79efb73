/** core/: the types every stage shares (documents, datasets, runs, manifests, verdicts) and the one error type with its code table. */

export * from './clock.js';
export * from './dataset.js';
export * from './document.js';
export * from './error-codes.js';
export * from './errors.js';
export * from './parse.js';
export * from './run.js';
export * from './run-manifest.js';
export * from './section-label.js';
export * from './verdict.js';
