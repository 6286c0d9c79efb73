/** io/: file handling — atomic writes, locks, run files that resume, JSON/JSONL rows read in bounded memory, CSV, guarded input reading. */
export * from './atomic-write.js';
export * from './csv.js';
export * from './file-lock.js';
export * from './fingerprint.js';
export { folderFiles } from './folder-files.js';
export * from './hash-inputs.js';
export * from './json-rows.js';
export * from './json-syntax.js';
export * from './jsonl.js';
export * from './read-input.js';
export * from './run-file.js';
export * from './sqlite-write-error.js';
export * from './writer-check.js';
