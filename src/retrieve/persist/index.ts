export {
  type IndexManifest,
  indexExists,
  loadIndex,
  openDense,
  readManifest,
  type SavedIndex,
  saveIndex,
} from './index-dir.js';
