/**
 * PDF ingest time against page count, on generated PDFs of one line per page and a flat page tree
 * (one /Kids list, as many generators write it): CPU time per page of raw pdfjs extraction and of the
 * full ingest at 1,000 to 16,000 pages. Linear work keeps the time per page flat; the ratio of the
 * per-page time at 16,000 pages to that at 1,000 pages is printed (1.0 linear, 16 quadratic).
 * Stock pdfjs finds each page by walking the page tree from its root (Catalog.getPageDict), which
 * on a flat tree is proportional to the pages; pdfjs-page-tree.ts replaces that lookup with one
 * pass over the tree, and this is where it shows. Also: how long a PDF past the page bound
 * (--max-pdf-pages, default 5,000) takes to be refused.
 */
import { DEFAULT_MAX_PDF_PAGES, rawPdfText, readDocumentBytes } from '../src/ingest/index.js';
import { pageTreePatch } from '../src/ingest/pdf/pdfjs-page-tree.js';
import { flatPdf } from '../src/testing/generated-pdf.js';
import { loadAverage } from './interleaved.js';

const SIZES = [1000, 2000, 4000, 8000, 16000];

async function cpuMs(run: () => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage();
  await run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

export default async function bench(): Promise<void> {
  // Loads pdfjs and warms the JIT on both paths, so the first size is not charged for compiling.
  const warm = new Uint8Array(flatPdf(1000));
  await rawPdfText('warm.pdf', warm);
  await readDocumentBytes(warm, { file: 'warm.pdf', id: 'warm' });
  console.log(
    `load ${loadAverage()} before; linear page lookup: ${pageTreePatch.applied ? 'on' : `OFF (${pageTreePatch.reason})`}`,
  );
  console.log('| pages | raw pdfjs ms/page (CPU) | full ingest ms/page (CPU) |');
  console.log('|---:|---:|---:|');
  const perPage: { raw: number; full: number }[] = [];
  for (const pages of SIZES) {
    const bytes = new Uint8Array(flatPdf(pages));
    const raw = (await cpuMs(() => rawPdfText('p.pdf', bytes, pages))) / pages;
    const full =
      (await cpuMs(() => readDocumentBytes(bytes, { file: 'p.pdf', id: 'p', maxPdfPages: pages }))) / pages;
    perPage.push({ raw, full });
    console.log(`| ${pages} | ${raw.toFixed(2)} | ${full.toFixed(2)} |`);
  }
  const first = perPage[0]!;
  const last = perPage.at(-1)!;
  console.log(
    `time per page at ${SIZES.at(-1)} pages / at ${SIZES[0]} pages: raw ${(last.raw / first.raw).toFixed(2)}, full ${(last.full / first.full).toFixed(2)} (1.0 = linear, ${SIZES.at(-1)! / SIZES[0]!} = quadratic)`,
  );
  const over = new Uint8Array(flatPdf(DEFAULT_MAX_PDF_PAGES + 1));
  const t = performance.now();
  await readDocumentBytes(over, { file: 'over.pdf', id: 'over' }).catch((e: { code?: string }) => {
    if (e.code !== 'INGEST_PDF_TOO_LONG') throw e;
  });
  console.log(
    `${DEFAULT_MAX_PDF_PAGES + 1} pages refused (INGEST_PDF_TOO_LONG) in ${(performance.now() - t).toFixed(0)} ms`,
  );
}
