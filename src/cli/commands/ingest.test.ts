import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedDataPath } from '../../testing/shared-data.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

const fixtures = join(import.meta.dirname, '..', '..', 'ingest', '__fixtures__');

async function run(args: string[], cwd: string) {
  const { io, stdout, stderr } = memoryIo({ cwd });
  const code = await runCli(args, io);
  return { code, out: stdout(), err: stderr() };
}

function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'citegeist-ingest-'));
  mkdirSync(join(dir, 'papers'));
  copyFileSync(sharedDataPath('papers', 'jats', 'PMC5828200.nxml'), join(dir, 'papers', 'PMC5828200.nxml'));
  copyFileSync(sharedDataPath('qasper-dev', 'qasper-native-sample.json'), join(dir, 'papers', 'sample.json'));
  copyFileSync(join(fixtures, 'tiny.pdf'), join(dir, 'papers', 'tiny.pdf'));
  copyFileSync(join(fixtures, 'encrypted.pdf'), join(dir, 'papers', 'locked.pdf'));
  writeFileSync(join(dir, 'papers', 'notes.md'), '# Notes\n\n## 2.1 Data\n\nWe used ten papers.\n');
  return dir;
}

describe('citegeist ingest, list, show', () => {
  it('ingests a folder, reports each failure with its reason, and skips unchanged files next time', async () => {
    const cwd = workspace();
    const first = await run(['ingest', 'papers'], cwd);
    expect(first.code).toBe(1);
    expect(first.out).toMatch(
      /FAILED +papers\/locked\.pdf: \[INGEST_PDF_ENCRYPTED\] .*locked\.pdf is encrypted/,
    );
    expect(first.out).toMatch(/fix: Save an unencrypted copy/);
    expect(first.out).toMatch(/ingested 4, unchanged 0, failed 1 \(corpus \.citegeist\/corpus\.sqlite\)/);
    // each failure is printed once (in the list), not also by the progress reporter
    expect(`${first.out}${first.err}`.match(/locked\.pdf is encrypted/g)).toHaveLength(1);
    const again = await run(['--json', 'ingest', 'papers/notes.md', 'papers/tiny.pdf'], cwd);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.out)).toMatchObject({ ingested: 0, unchanged: 2, failed: 0 });
  });

  it('lists the documents and shows a section by a case- and numbering-insensitive label', async () => {
    const cwd = workspace();
    await run(['ingest', 'papers'], cwd);
    const list = await run(['list'], cwd);
    expect(list.code).toBe(0);
    expect(list.out).toMatch(/^id +source +pages +sections +paragraphs +title$/m);
    expect(list.out).toMatch(/^1912\.01214 +json .*Cross-lingual Pre-training/m);
    expect(list.out).toMatch(/^tiny +pdf +1 /m);
    expect(list.out).toMatch(/4 document\(s\) in \.citegeist\/corpus\.sqlite/);
    const section = await run(['show', 'notes', '--section', 'data'], cwd);
    expect(section.out).toBe('== 2.1 Data\n\n## 2.1 Data\n\nWe used ten papers.\n\n');
    const nested = await run(['--json', 'show', '1912.01214', '--section', 'experiments ::: setup'], cwd);
    expect(JSON.parse(nested.out).sections.map((s: { path: string[] }) => s.path)).toEqual([
      ['Experiments', 'Setup'],
    ]);
    const outline = await run(['show', 'PMC5828200'], cwd);
    expect(outline.out).toMatch(/licence CC BY 3\.0/);
    expect(outline.out).toMatch(/^ {2}Bioavailability of CSP · \d+ paragraph\(s\)$/m);
    const missing = await run(['show', 'notes', '--section', 'Results'], cwd);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(
      /SECTION_NOT_FOUND.*notes has no section "Results"; its sections: .*2\.1 Data/,
    );
  });

  it('draws a progress bar on stderr only when it is a terminal', async () => {
    const cwd = workspace();
    const err: string[] = [];
    const out: string[] = [];
    const io = {
      out: (t: string) => void out.push(t),
      err: (t: string) => void err.push(t),
      env: {},
      cwd,
      interactive: true,
    };
    const code = await runCli(['ingest', 'papers/notes.md', 'papers/tiny.pdf'], io);
    expect(code).toBe(0);
    expect(err.join('')).toMatch(/ingest \[=+\] 2\/2 files \| papers\/tiny\.pdf/);
    expect(out.join('')).toMatch(/ingested 2, unchanged 0, failed 0/);
  });

  it('says how to start when there is no corpus', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'citegeist-empty-'));
    const { code, err } = await run(['list'], cwd);
    expect(code).toBe(1);
    expect(err).toMatch(/CORPUS_NOT_FOUND[\s\S]*citegeist ingest/);
  });

  it('quote --paper takes a corpus id or a PDF and reports pages', async () => {
    const cwd = workspace();
    await run(['ingest', 'papers/tiny.pdf'], cwd);
    writeFileSync(join(cwd, 'q.txt'), 'a tiny fixture paper about dehypenisation\n');
    for (const paper of ['tiny', 'papers/tiny.pdf']) {
      const { code, out } = await run(
        ['quote', '--paper', paper, '--quotes', 'q.txt', '--mode', 'strict'],
        cwd,
      );
      expect(code).toBe(0);
      expect(out).toMatch(/^line 1 +matched +exact +\[\d+, \d+\) +page 1 /m);
    }
  });
});
