import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * Linear page lookup for pdfjs (issue 33 item 4).
 *
 * pdfjs (checked on pdfjs-dist 5.6.205) finds page i with Catalog.getPageDict(i), which walks the
 * page tree from its root on every call: it pushes every kid of every node it enters onto a stack
 * (with a RefSetCache lookup per kid) before skipping the kids it has counted. On a flat tree (one
 * /Kids list of n pages, as many generators write it) every call costs O(n) and reading all pages
 * O(n²): 8,000 pages took 37 s of CPU where 4,000 took 5 s. The kids-count cache does not help,
 * because the push loop over the root's kids runs before it is consulted; no call order avoids it.
 * Upstream declined a flat-tree shortcut (mozilla/pdf.js#20359) and the code is unchanged since.
 *
 * pdfjs already has a linear walk, Catalog.getAllPageDicts (one depth-first pass that lists every
 * page with its reference), which it uses only to recover from a wrong /Count. The worker pdfjs
 * loads is the same module with one method wrapped: getPageDict first asks that list, built once
 * per document, and falls back to the original walk for any page the list lacks or marks as an
 * error (a damaged tree: the list stops at the first bad node), so pages and errors are those pdfjs
 * gives. The worker is pdfjs's own file with that text change, handed to pdfjs through its public
 * GlobalWorkerOptions.workerSrc as a data: URL; when the text to wrap is not found (another pdfjs
 * version) the stock worker is used unchanged and `pageTreePatch.applied` says so (a unit test
 * fails then, so an upgrade re-checks this).
 */

const WORKER = 'pdfjs-dist/legacy/build/pdf.worker.mjs';
/** The method that is wrapped, and the linear walk the wrapper calls (both must exist once). */
const LOOKUP = '  async getPageDict(pageIndex) {\n';
const LIST = '  async getAllPageDicts(recoveryMode = false) {\n';

/** The wrapper: the page list is built on the first lookup and kept with the catalog. */
const WRAPPER = `  async getPageDict(pageIndex) {
    this.citegeistPageList ??= this.getAllPageDicts(false).catch(() => null);
    const listed = (await this.citegeistPageList)?.get(pageIndex);
    if (listed && !(listed[0] instanceof Error)) return listed;
    return this.citegeistWalkToPage(pageIndex);
  }
  async citegeistWalkToPage(pageIndex) {
`;

export interface PageTreePatch {
  applied: boolean;
  /** Why not, when not applied. */
  reason?: string;
}

/** Whether the worker pdfjs uses has the linear lookup (set by useLinearPageLookup). */
export const pageTreePatch: PageTreePatch = { applied: false, reason: 'pdfjs not loaded yet' };

/** The pdfjs worker source with getPageDict wrapped, or why it cannot be. */
export function patchWorkerSource(source: string): { source: string } | { reason: string } {
  const count = (needle: string) => source.split(needle).length - 1;
  if (count(LOOKUP) !== 1 || count(LIST) !== 1) {
    return { reason: `${WORKER} does not define Catalog.getPageDict/getAllPageDicts as pdfjs-dist 5.6 does` };
  }
  return { source: source.replace(LOOKUP, WRAPPER) };
}

/**
 * Points pdfjs (in Node it runs its worker on the main thread) at the wrapped worker. Called once,
 * before the first document is opened; a worker already chosen by the host is left alone.
 */
export function useLinearPageLookup(options: { workerSrc: string }): void {
  if (options.workerSrc && !options.workerSrc.endsWith('pdf.worker.mjs')) {
    Object.assign(pageTreePatch, { applied: false, reason: 'a worker was set by the host' });
    return;
  }
  let patched: ReturnType<typeof patchWorkerSource>;
  try {
    patched = patchWorkerSource(readFileSync(createRequire(import.meta.url).resolve(WORKER), 'utf8'));
  } catch (error) {
    patched = { reason: `${WORKER} could not be read (${(error as Error).message})` };
  }
  if ('reason' in patched) {
    Object.assign(pageTreePatch, { applied: false, reason: patched.reason });
    return;
  }
  options.workerSrc = `data:text/javascript;base64,${Buffer.from(patched.source).toString('base64')}`;
  Object.assign(pageTreePatch, { applied: true, reason: undefined });
}
