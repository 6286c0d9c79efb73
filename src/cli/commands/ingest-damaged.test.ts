import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

const DEMO_PDF = resolve(import.meta.dirname, '..', '..', '..', 'assets', 'demo', 'papers', 'N18-3011.pdf');

/** The bundled ACL paper with 30 bytes of page 2's content stream flipped (pdfjs: "Bad encoding in flate stream"). */
function damagedPdf(): Buffer {
  const bytes = Buffer.from(readFileSync(DEMO_PDF));
  const text = bytes.toString('latin1');
  // the data of the 7th stream (page 2's content), not an "endstream" line
  const starts = [...text.matchAll(/(?<!end)stream\r?\n/g)].map((m) => m.index);
  const at = starts[6]!;
  for (let j = 40; j < 70; j++) bytes[at + j] = bytes[at + j]! ^ 0x5a;
  return bytes;
}

describe('ingest of a damaged PDF', () => {
  it('stores what can be read, flagged as damaged, and says so (ingest, show, JSON)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'citegeist-damaged-'));
    writeFileSync(join(dir, 'damaged.pdf'), damagedPdf());
    const { io, stdout } = memoryIo({ cwd: dir });
    expect(await runCli(['ingest', 'damaged.pdf'], io)).toBe(0);
    expect(stdout()).toMatch(
      /ingested {3}damaged\.pdf → damaged\n {13}DAMAGED: 1 page\(s\) unreadable \(2: .*flate/,
    );
    expect(stdout()).toMatch(/ingested 1 \(1 damaged\), unchanged 0, failed 0/);
    const show = memoryIo({ cwd: dir });
    expect(await runCli(['show', 'damaged'], show.io)).toBe(0);
    expect(show.stdout()).toMatch(/DAMAGED: 1 page\(s\) unreadable/);
    expect(show.stdout()).toMatch(/8 pages/);
    const json = memoryIo({ cwd: dir });
    await runCli(['--json', 'ingest', 'damaged.pdf', '--corpus', 'other.sqlite'], json.io);
    expect(JSON.parse(json.stdout())).toMatchObject({
      damaged: 1,
      outcomes: [{ damaged: expect.stringMatching(/unreadable/) }],
    });
  });
});

describe('ingest of a web page saved as .pdf', () => {
  it('says it is HTML (with its title) and what that usually means, and ingests nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'citegeist-html-pdf-'));
    writeFileSync(
      join(dir, 'paper.pdf'),
      '\uFEFF<!DOCTYPE html>\n<html lang="en"><head><title>Sign in | Publisher</title></head><body>Log in</body></html>\n',
    );
    const { io, stdout } = memoryIo({ cwd: dir });
    expect(await runCli(['ingest', 'paper.pdf'], io)).toBe(1);
    expect(stdout()).toMatch(
      /\[INGEST_PDF_CORRUPT\] .*paper\.pdf is not a PDF but a web page \(HTML, titled "Sign in \| Publisher"\) saved under a \.pdf name: usually a paywall, login/,
    );
    expect(stdout()).toMatch(/fix: Open the link in a browser where you have access/);
    // Nothing was ingested, so no (empty) corpus is left behind; nor for a file that is not there.
    expect(existsSync(join(dir, '.citegeist', 'corpus.sqlite'))).toBe(false);
    const missing = memoryIo({ cwd: dir });
    expect(await runCli(['ingest', 'not-there.pdf', '--corpus', 'c.sqlite'], missing.io)).not.toBe(0);
    expect(readdirSync(dir).filter((f) => f.startsWith('c.sqlite'))).toEqual([]);
  });
});
