import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedDataAvailable, sharedDataPath } from '../../testing/shared-data.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

async function run(args: string[], cwd: string) {
  const { io, stdout, stderr } = memoryIo({ cwd });
  const code = await runCli(args, io);
  return { code, out: stdout(), err: stderr() };
}

describe.skipIf(!sharedDataAvailable('papers', 'pdf'))(
  'citegeist show (skipped without ../shared/data)',
  () => {
    const cwd = mkdtempSync(join(tmpdir(), 'citegeist-show-'));
    copyFileSync(sharedDataPath('papers', 'pdf', 'N18-3011.pdf'), join(cwd, 'N18-3011.pdf'));

    it('prints how a PDF page was read: separators, regions in reading order, blocks with kinds', async () => {
      const text = await run(['show', 'N18-3011.pdf', '--layout', '1'], cwd);
      expect(text.code).toBe(0);
      expect(text.out).toMatch(/^N18-3011\.pdf, page 1 of 8/);
      expect(text.out).toMatch(/separator at x 299/);
      expect(text.out).toMatch(
        /\[title\] region 1, 1 line\(s\)\n +[\d.]+ +[\d.]+ +14\.5 +Construction of the Literature Graph/,
      );
      expect(text.out).toMatch(/\[heading 1\] region 2, 1 line\(s\)\n.*Abstract/);
      const json = await run(['--json', 'show', 'N18-3011.pdf', '--layout', '1'], cwd);
      const page = JSON.parse(json.out);
      expect(page.regions.map((r: { order: number }) => r.order)).toEqual([0, 1, 2, 3]);
      expect(page.blocks.map((b: { kind: string }) => b.kind).slice(0, 4)).toEqual([
        'title',
        'front',
        'front',
        'heading',
      ]);
      expect(page.furniture.map((f: { kind: string }) => f.kind)).toContain('page-number');
    }, 60_000);

    it('refuses a page the PDF does not have, and a document that is not a PDF', async () => {
      const bad = await run(['show', 'N18-3011.pdf', '--layout', '9'], cwd);
      expect([bad.code, bad.err]).toEqual([1, expect.stringMatching(/BAD_OPTION.*has 8 page\(s\)/s)]);
      writeFileSync(join(cwd, 'notes.md'), '# Notes\n\nPlain text, not a PDF.\n');
      const notPdf = await run(['show', 'notes.md', '--layout', '1'], cwd);
      expect([notPdf.code, notPdf.err]).toEqual([1, expect.stringMatching(/BAD_OPTION.*not a PDF/s)]);
    }, 60_000);

    it('prints the whole Document with --json: kinds, markers, furniture', async () => {
      const { out } = await run(['--json', 'show', 'N18-3011.pdf'], cwd);
      const doc = JSON.parse(out);
      expect(doc.paragraphs.some((p: { kind: string }) => p.kind === 'reference')).toBe(true);
      expect(doc.markers.length).toBeGreaterThan(20);
      expect(doc.sections.at(-1).heading).toBe('References');
    }, 60_000);
  },
);
