/** What a format reader knows about the file it reads. */
export interface IngestContext {
  /** The file as the user named it (used in error messages and `meta.file`). */
  file: string;
  /** The document id to give the result (for sources with several papers: the base id). */
  id: string;
  /** The most pages one PDF may have (default DEFAULT_MAX_PDF_PAGES, `--max-pdf-pages`). */
  maxPdfPages?: number;
}
