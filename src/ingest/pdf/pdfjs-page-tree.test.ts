import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { pageTreePdf } from '../../testing/generated-pdf.js';
import { readPdfContent } from './pdf-engine.js';
import { patchWorkerSource, useLinearPageLookup } from './pdfjs-page-tree.js';

const require = createRequire(import.meta.url);
const WORKER = require.resolve('pdfjs-dist/legacy/build/pdf.worker.mjs');

/** Calls of the original walk and of the one-pass page list, counted inside the worker. */
const calls = globalThis as { citegeistWalks?: number; citegeistLists?: number };

function counted(): { walks: number; lists: number } {
  return { walks: calls.citegeistWalks ?? 0, lists: calls.citegeistLists ?? 0 };
}

/** Page texts as stock pdfjs (no wrapper) reads them, in a child process: text or "unreadable". */
function stockPages(pdf: Buffer): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'page-tree-'));
  writeFileSync(join(dir, 'p.pdf'), pdf);
  const script = `
    import { readFileSync } from 'node:fs';
    const lib = await import(${JSON.stringify(pathToFileURL(require.resolve('pdfjs-dist/legacy/build/pdf.mjs')).href)});
    const doc = await lib.getDocument({ data: new Uint8Array(readFileSync(process.argv[2])), verbosity: 0, isEvalSupported: false, stopAtErrors: false }).promise;
    const out = [];
    for (let n = 1; n <= doc.numPages; n++) {
      try {
        const c = await (await doc.getPage(n)).getTextContent();
        out.push(c.items.map((i) => i.str).join(''));
      } catch { out.push('unreadable'); }
    }
    console.log(JSON.stringify(out));`;
  writeFileSync(join(dir, 'stock.mjs'), script);
  return JSON.parse(
    execFileSync(process.execPath, [join(dir, 'stock.mjs'), join(dir, 'p.pdf')], { encoding: 'utf8' }),
  );
}

async function ourPages(pdf: Buffer): Promise<string[]> {
  const content = await readPdfContent('p.pdf', new Uint8Array(pdf), 1e6);
  const bad = new Set(content.unreadable.map((u) => u.page));
  return content.pages.map((p) => (bad.has(p.number) ? 'unreadable' : p.items.map((i) => i.str).join('')));
}

describe('pdfjs page lookup linear in the pages (issue 33)', () => {
  it('the installed pdfjs worker has the methods the wrapper needs; another text is left alone', () => {
    const patched = patchWorkerSource(readFileSync(WORKER, 'utf8'));
    expect('source' in patched && patched.source.includes('citegeistWalkToPage')).toBe(true);
    expect(patchWorkerSource('export {}')).toEqual({ reason: expect.stringMatching(/getPageDict/) });
    const stock = { workerSrc: './pdf.worker.mjs' };
    useLinearPageLookup(stock);
    expect(stock.workerSrc).toMatch(/^data:text\/javascript;base64,/);
    const host = { workerSrc: '/somewhere/my-worker.js' };
    useLinearPageLookup(host);
    expect(host.workerSrc).toBe('/somewhere/my-worker.js');
  });

  describe('reading pages through the wrapped worker', () => {
    beforeAll(async () => {
      // The wrapped worker with two counters, set before pdf-engine loads pdfjs (it then keeps it).
      const patched = patchWorkerSource(readFileSync(WORKER, 'utf8'));
      if (!('source' in patched)) throw new Error(patched.reason);
      const source = patched.source
        .replace(
          '  async citegeistWalkToPage(pageIndex) {\n',
          '$&    globalThis.citegeistWalks = (globalThis.citegeistWalks ?? 0) + 1;\n',
        )
        .replace(
          '  async getAllPageDicts(recoveryMode = false) {\n',
          '$&    globalThis.citegeistLists = (globalThis.citegeistLists ?? 0) + 1;\n',
        );
      const lib = await import('pdfjs-dist/legacy/build/pdf.mjs');
      lib.GlobalWorkerOptions.workerSrc = `data:text/javascript;base64,${Buffer.from(source).toString('base64')}`;
    });

    it('a flat tree of 300 pages: one pass lists them, no page is found by walking from the root', async () => {
      const pdf = pageTreePdf(300);
      const before = counted();
      const pages = await ourPages(pdf);
      const after = counted();
      expect(pages).toHaveLength(300);
      expect(pages[0]).toBe('Sheet 1: the lake held 0 fish.');
      expect(pages[299]).toBe('Sheet 300: the lake held 2093 fish.');
      expect(after.lists - before.lists).toBe(1);
      expect(after.walks - before.walks).toBe(0);
    });

    it('a nested tree with inherited MediaBox and Resources reads as stock pdfjs reads it', async () => {
      const pdf = pageTreePdf(50, { fanout: 4 });
      const before = counted();
      const pages = await ourPages(pdf);
      expect(counted().walks - before.walks).toBe(0);
      expect(pages).toEqual(stockPages(pdf));
      expect(pages[49]).toBe('Sheet 50: the lake held 343 fish.');
    });

    it('a damaged tree (a kid that does not exist): the pages past it fall back to the walk, as stock pdfjs', async () => {
      for (const shape of [{ brokenKid: 7 }, { fanout: 3, brokenKid: 7 }]) {
        const pdf = pageTreePdf(20, shape);
        const before = counted();
        const pages = await ourPages(pdf).catch((e: { code?: string }) => [`error ${e.code}`]);
        expect(counted().walks - before.walks).toBeGreaterThan(0);
        expect(pages).toEqual(stockPages(pdf));
      }
    });
  });
});
