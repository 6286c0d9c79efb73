import { CitegeistError } from '../../core/index.js';
import { useLinearPageLookup } from './pdfjs-page-tree.js';

/** One positioned run of text on a page, in PDF user space (y grows upwards). */
export interface PdfItem {
  str: string;
  /** Left edge and baseline. */
  x: number;
  y: number;
  width: number;
  /** Font size (the glyph height in user space). */
  size: number;
  /** The font resource: same id = same font face (used to tell headings and body apart). */
  font: string;
  /** Text that is not horizontal (margin stamps, rotated table headers). */
  rotated: boolean;
}

export interface PdfPageItems {
  number: number;
  width: number;
  height: number;
  items: PdfItem[];
}

export interface PdfContent {
  pages: PdfPageItems[];
  /** Pages whose content could not be decoded (a damaged stream): kept empty, with the reason. */
  unreadable: { page: number; reason: string }[];
  info: { title?: string; author?: string; subject?: string; keywords?: string };
}

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjsPromise: Promise<PdfJs> | undefined;

/**
 * pdfjs is loaded on first use (it takes ~100 ms), then shared: it keeps no per-document state. Its
 * worker gets a page lookup that is linear in the pages (pdfjs-page-tree.ts).
 */
function pdfjs(): Promise<PdfJs> {
  pdfjsPromise ??= import('pdfjs-dist/legacy/build/pdf.mjs').then((lib) => {
    useLinearPageLookup(lib.GlobalWorkerOptions);
    return lib;
  });
  return pdfjsPromise;
}

/** Options that make pdfjs run headless in Node: no eval, no font loading, no system fonts. */
const NODE_OPTIONS = {
  isEvalSupported: false,
  disableFontFace: true,
  useSystemFonts: false,
  stopAtErrors: false,
  verbosity: 0,
} as const;

/**
 * The most pages one PDF may have (`--max-pdf-pages`). A paper has tens of pages, a thesis or a
 * proceedings volume hundreds. Reading is linear in the pages (pdfjs's page lookup is replaced by a
 * one-pass list, pdfjs-page-tree.ts: 0.3 ms of CPU per page from 4,000 to 16,000 flat pages,
 * `npm run bench -- pdf-pages`); the bound keeps one merged volume from filling the corpus and
 * memory, and a larger file is refused before any page is read.
 */
export const DEFAULT_MAX_PDF_PAGES = 5000;

/**
 * Opens a PDF with pdfjs, turning its failures into CitegeistErrors that name the file; a PDF with
 * more than `maxPages` pages is refused (INGEST_PDF_TOO_LONG) before any page is read.
 */
export async function openPdf(file: string, bytes: Uint8Array, maxPages = DEFAULT_MAX_PDF_PAGES) {
  const lib = await pdfjs();
  if (bytes.length === 0) {
    throw new CitegeistError(
      'EMPTY_FILE',
      `${file} is empty (0 bytes).`,
      'Check the file was copied or downloaded completely.',
    );
  }
  // pdfjs transfers (detaches) the buffer it gets; give it a copy so callers keep theirs.
  const task = lib.getDocument({ ...NODE_OPTIONS, data: bytes.slice() });
  let doc: Awaited<typeof task.promise>;
  try {
    doc = await task.promise;
  } catch (error) {
    await task.destroy().catch(() => undefined);
    throw pdfOpenError(file, error, bytes);
  }
  if (doc.numPages > maxPages) {
    await task.destroy().catch(() => undefined);
    throw new CitegeistError(
      'INGEST_PDF_TOO_LONG',
      `${file} has ${doc.numPages.toLocaleString('en-US')} pages, more than the ${maxPages.toLocaleString('en-US')} one PDF may have.`,
      'Check it is one paper (not a merged volume): split it (e.g. `qpdf --split-pages=500 in.pdf out.pdf`), or raise the bound with --max-pdf-pages.',
    );
  }
  return doc;
}

function pdfOpenError(file: string, error: unknown, bytes: Uint8Array): CitegeistError {
  const name = (error as { name?: string })?.name ?? '';
  const message = error instanceof Error ? error.message : String(error);
  const html = htmlPage(bytes);
  if (html) {
    return new CitegeistError(
      'INGEST_PDF_CORRUPT',
      `${file} is not a PDF but a web page (HTML${html.title ? `, titled ${JSON.stringify(html.title)}` : ''}) saved under a .pdf name: usually a paywall, login or "access denied" page that a download got instead of the paper.`,
      'Open the link in a browser where you have access (or find an open-access copy) and save the PDF itself; or ingest another format of the paper (JATS, TEI).',
      { cause: error },
    );
  }
  if (name === 'PasswordException') {
    return new CitegeistError(
      'INGEST_PDF_ENCRYPTED',
      `${file} is encrypted and needs a password (${message}).`,
      'Save an unencrypted copy (e.g. `qpdf --decrypt in.pdf out.pdf`) and ingest that.',
      { cause: error },
    );
  }
  return new CitegeistError(
    'INGEST_PDF_CORRUPT',
    `${file} is not a readable PDF (${name || 'error'}: ${message}).`,
    'The file may be truncated or damaged: download it again, or ingest another format of the paper (JATS, TEI).',
    { cause: error },
  );
}

/** The start of an HTML page (and its title), when `bytes` are one rather than a PDF. */
export function htmlPage(bytes: Uint8Array): { title: string | null } | null {
  const head = new TextDecoder('utf-8', { fatal: false })
    .decode(bytes.subarray(0, 4096))
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (!/^(<!doctype html|<html[\s>]|<head[\s>]|<\?xml[^>]*>\s*(<!doctype html|<html))/i.test(head))
    return null;
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(head)?.[1]?.replace(/\s+/g, ' ').trim();
  return { title: title || null };
}

/** Whether a page has text in its upper half at least 20% larger than most of its text. */
function printsTitle(page: PdfPageItems | undefined): boolean {
  if (!page) return false;
  const sizes = page.items.filter((i) => i.str.trim() !== '').map((i) => i.size);
  if (sizes.length === 0) return false;
  const usual = [...sizes].sort((a, b) => a - b)[Math.floor(sizes.length / 2)]!;
  return page.items.some((i) => i.size >= usual * 1.2 && i.y > page.height / 2 && i.str.trim() !== '');
}

/** Reads every page's text items (pdfjs getTextContent) with their geometry. */
export async function readPdfContent(
  file: string,
  bytes: Uint8Array,
  maxPages = DEFAULT_MAX_PDF_PAGES,
): Promise<PdfContent> {
  const doc = await openPdf(file, bytes, maxPages);
  try {
    const pages: PdfPageItems[] = [];
    const unreadable: PdfContent['unreadable'] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      let page: Awaited<ReturnType<typeof doc.getPage>>;
      let content: Awaited<ReturnType<typeof page.getTextContent>>;
      try {
        page = await doc.getPage(n);
        // No normalisation: ligatures such as U+FB01 stay as printed (the quote normaliser folds them).
        content = await page.getTextContent({ disableNormalization: true });
      } catch (error) {
        // One damaged page (a bad content stream) must not lose the others: it is kept empty and
        // reported, and the document is stored flagged as damaged.
        unreadable.push({ page: n, reason: error instanceof Error ? error.message : String(error) });
        pages.push({ number: n, width: 0, height: 0, items: [] });
        continue;
      }
      const [x0, y0, x1, y1] = page.view as [number, number, number, number];
      const items: PdfItem[] = [];
      for (const raw of content.items) {
        if (!('str' in raw)) continue;
        const [a, b, c, d, e, f] = raw.transform as number[];
        const size = Math.hypot(c ?? 0, d ?? 0) || Math.hypot(a ?? 0, b ?? 0);
        items.push({
          str: raw.str,
          x: (e ?? 0) - x0,
          y: (f ?? 0) - y0,
          width: raw.width,
          size,
          font: raw.fontName,
          rotated: Math.abs(b ?? 0) > 1e-3 || Math.abs(c ?? 0) > 1e-3,
        });
      }
      pages.push({ number: n, width: x1 - x0, height: y1 - y0, items });
      page.cleanup();
    }
    // The document information is only a fallback for the title (it is often a file name or empty):
    // it is read only when page 1 shows no large type in its upper half (reading it costs ~1.5%).
    const meta = printsTitle(pages[0]) ? undefined : await doc.getMetadata().catch(() => undefined);
    const info = (meta?.info ?? {}) as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
    const out: PdfContent['info'] = {};
    for (const [k, key] of [
      ['title', 'Title'],
      ['author', 'Author'],
      ['subject', 'Subject'],
      ['keywords', 'Keywords'],
    ] as const) {
      const v = str(info[key]);
      if (v !== undefined) out[k] = v;
    }
    if (unreadable.length === doc.numPages && doc.numPages > 0) {
      throw pdfOpenError(file, new Error(unreadable[0]?.reason ?? 'no page could be read'), bytes);
    }
    return { pages, unreadable, info: out };
  } catch (error) {
    if (error instanceof CitegeistError) throw error;
    throw pdfOpenError(file, error, bytes);
  } finally {
    await doc.destroy();
  }
}

/** Raw extraction only (getTextContent joined per page): the baseline the benchmark compares to. */
export async function rawPdfText(
  file: string,
  bytes: Uint8Array,
  maxPages = DEFAULT_MAX_PDF_PAGES,
): Promise<{ pages: number; text: string }> {
  const doc = await openPdf(file, bytes, maxPages);
  try {
    let text = '';
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent({ disableNormalization: true });
      for (const raw of content.items) if ('str' in raw) text += raw.hasEOL ? `${raw.str}\n` : raw.str;
      page.cleanup();
    }
    return { pages: doc.numPages, text };
  } finally {
    await doc.destroy();
  }
}
