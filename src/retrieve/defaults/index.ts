export { PaperRetriever } from './paper-retriever.js';
export * from './retrieval-defaults.js';
