/** ingest/: every supported format → Document. */
export { DocumentBuilder } from './document-builder.js';
export { readDocumentFile } from './read-document.js';
