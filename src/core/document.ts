import { z } from 'zod';

/** A `[start, end)` character span into `Document.text`. */
export const SpanSchema = z.object({
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
});
export type Span = z.infer<typeof SpanSchema>;

export const DocumentSourceSchema = z.enum(['pdf', 'jats', 'tei', 'markdown', 'text', 'json']);
export type DocumentSource = z.infer<typeof DocumentSourceSchema>;

export const DocumentMetaSchema = z.object({
  doi: z.string().optional(),
  openalexId: z.string().optional(),
  year: z.number().int().optional(),
  licence: z.string().optional(),
  url: z.string().optional(),
  authors: z.array(z.string()).optional(),
  abstract: z.string().optional(),
  /** Path or name of the file the document was read from. */
  file: z.string().optional(),
  /**
   * Set when part of the source could not be read (damaged PDF pages, unmapped glyphs): what was
   * lost, so that a document with holes is never mistaken for a complete one.
   */
  damaged: z.string().optional(),
});
export type DocumentMeta = z.infer<typeof DocumentMetaSchema>;

/** One page of a paginated source: its span of `text` (1-based `number`). */
export const PageSchema = SpanSchema.extend({ number: z.number().int().positive() });
export type Page = z.infer<typeof PageSchema>;

export const SectionSchema = SpanSchema.extend({
  id: z.string(),
  heading: z.string(),
  /** 1 for top-level sections, 2 for subsections, … */
  level: z.number().int().positive(),
  /** Headings from the outermost section down to this one, e.g. ["3 Method", "3.1 Data"]. */
  path: z.array(z.string()),
});
export type Section = z.infer<typeof SectionSchema>;

/**
 * What a paragraph is. The reading flow is `abstract` and `body`; everything else is kept apart from
 * it: `title`; `front` (authors, affiliations, dates on the first page); `caption` (of a figure or
 * table); `footnote`; `table` (a table body: cells separated by tabs and rows by newlines when its
 * rows and columns were recovered, else its text); `formula` (display mathematics); `code` (a code
 * block); `float` (other text inside a figure); `reference` (one bibliography entry).
 */
export const ParagraphKindSchema = z.enum([
  'body',
  'caption',
  'footnote',
  'abstract',
  'title',
  'float',
  'front',
  'table',
  'formula',
  'code',
  'reference',
]);
export type ParagraphKind = z.infer<typeof ParagraphKindSchema>;

export const ParagraphSchema = SpanSchema.extend({
  id: z.string(),
  sectionId: z.string().nullable(),
  /** 1-based page number; null when the source has no pages. */
  page: z.number().int().positive().nullable(),
  kind: ParagraphKindSchema.default('body'),
});
export type Paragraph = z.infer<typeof ParagraphSchema>;

/**
 * Text that is not part of the document's content, kept apart: running headers and footers, page
 * numbers, margin stamps (arXiv identifiers), sidebars beside the text, a table of contents.
 */
export const FurnitureSchema = z.object({
  page: z.number().int().positive(),
  kind: z.enum(['header', 'footer', 'page-number', 'stamp', 'sidebar', 'toc', 'other']),
  text: z.string(),
});
export type Furniture = z.infer<typeof FurnitureSchema>;

/**
 * A footnote or citation marker inside a sentence ("performance,¹⁴ except", "[12]", "(Lee et al.,
 * 2020)"): a span of `text` that quote matching and retrieval may skip. `targets` are the ids of
 * the paragraphs it points to (bibliography entries, a footnote), for those that could be resolved.
 */
export const MarkerSchema = SpanSchema.extend({
  kind: z.enum(['footnote', 'citation']),
  targets: z.array(z.string()).default([]),
});
export type Marker = z.infer<typeof MarkerSchema>;

/**
 * A paper as every later stage sees it: canonical text plus pages, sections and paragraphs as
 * spans of that text. Spans are validated against the text length by `parseDocument`.
 */
export const DocumentSchema = z.object({
  id: z.string().min(1),
  title: z.string(),
  source: DocumentSourceSchema,
  language: z.string().default('en'),
  domain: z.string().optional(),
  meta: DocumentMetaSchema.default({}),
  text: z.string(),
  pages: z.array(PageSchema).default([]),
  sections: z.array(SectionSchema).default([]),
  paragraphs: z.array(ParagraphSchema).default([]),
  furniture: z.array(FurnitureSchema).default([]),
  markers: z.array(MarkerSchema).default([]),
});
export type Document = z.infer<typeof DocumentSchema>;
export type DocumentInput = z.input<typeof DocumentSchema>;

/** Validates a document, including that every span lies inside its text. */
export const ValidDocumentSchema = DocumentSchema.superRefine((doc, ctx) => {
  const n = doc.text.length;
  const check = (span: Span, path: (string | number)[]) => {
    if (span.start > span.end || span.end > n) {
      ctx.addIssue({
        code: 'custom',
        path,
        message: `span [${span.start}, ${span.end}) is outside the text (length ${n})`,
      });
    }
  };
  for (const [i, s] of doc.pages.entries()) check(s, ['pages', i]);
  for (const [i, s] of doc.sections.entries()) check(s, ['sections', i]);
  for (const [i, s] of doc.paragraphs.entries()) check(s, ['paragraphs', i]);
  for (const [i, s] of doc.markers.entries()) check(s, ['markers', i]);
});

/** The section whose span contains `offset` most specifically (deepest level), if any. */
export function sectionAt(doc: Pick<Document, 'sections'>, offset: number): Section | undefined {
  let best: Section | undefined;
  for (const s of doc.sections) {
    if (offset >= s.start && offset < s.end && (!best || s.level >= best.level)) best = s;
  }
  return best;
}

/** The 1-based page that contains `offset`, or null when the document has no pages. */
export function pageAt(doc: Pick<Document, 'pages'>, offset: number): number | null {
  for (const p of doc.pages) if (offset >= p.start && offset < p.end) return p.number;
  const last = doc.pages.at(-1);
  return last && offset === last.end ? last.number : null;
}
