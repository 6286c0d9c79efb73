export {
  EXPORT_FORMATS,
  type ExportFormat,
  exportPassages,
  parseExportFormat,
  passageLines,
} from './export-passages.js';
