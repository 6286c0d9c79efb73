import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../server/index.js';
import { chromiumMissing, launchChromium } from '../../testing/browser.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';
import { rebuildReport } from './serve.js';

const jsonl = (rows: unknown[]) => rows.map((r) => `${JSON.stringify(r)}\n`).join('');
const PAPER = 'The method uses a margin of one.\n\nResults improve on every task we tried.';

/** A small workspace: one paper, one question, one run, its grades and its report. */
async function workspace(base: string, answer: string) {
  const dir = join(base, 'ws');
  mkdirSync(join(dir, 'papers'), { recursive: true });
  writeFileSync(join(dir, 'papers', 'p1.txt'), PAPER);
  writeFileSync(
    join(dir, 'dataset.jsonl'),
    jsonl([
      {
        row_id: 'q1',
        paper_id: 'p1',
        domain: 'cs',
        question_type: 'lookup',
        question: 'What margin?',
        expected_answer: 'One.',
        expected_references: [
          { section_label: 'Method', alternatives: ['The method uses a margin of one.'] },
        ],
      },
    ]),
  );
  await answerAndGrade(dir, answer);
  return dir;
}

async function answerAndGrade(dir: string, answer: string) {
  writeFileSync(
    join(dir, 'run.jsonl'),
    jsonl([
      {
        row_id: 'q1',
        model: 'm',
        answer,
        citations: [{ key: '1', quote: 'The method uses a margin of one.' }],
      },
    ]),
  );
  const { io, stderr } = memoryIo({ cwd: dir });
  // A new run is graded into a new grades file (grading resumes a file only for the same run).
  rmSync(join(dir, 'grades.jsonl'), { force: true });
  const args = ['--dataset', 'dataset.jsonl', '--papers', 'papers'];
  expect(await runCli(['grade', ...args, '--run', 'run.jsonl', '--out', 'grades.jsonl'], io), stderr()).toBe(
    0,
  );
  return io;
}

async function report(dir: string, cwd = dir, out = 'report.html') {
  const { io, stderr } = memoryIo({ cwd });
  const rel = (f: string) => join(dir, f);
  const code = await runCli(
    [
      'report',
      '--grades',
      rel('grades.jsonl'),
      '--runs',
      rel('run.jsonl'),
      '--dataset',
      rel('dataset.jsonl'),
      '--papers',
      rel('papers'),
      '--out',
      out,
    ],
    io,
  );
  expect(code, stderr()).toBe(0);
}

async function get(server: RunningServer, path: string) {
  const res = await fetch(`${server.url}${path.replace(/^\//, '')}`);
  return { status: res.status, note: res.headers.get('x-citegeist-report'), body: await res.text() };
}

const missing = chromiumMissing();
if (missing) console.warn(`skipping the served report's browser check: ${missing}`);

describe('citegeist serve rebuilds reports', () => {
  let base: string;
  let dir: string;
  let server: RunningServer;
  beforeAll(async () => {
    base = mkdtempSync(join(tmpdir(), 'citegeist-serve-cli-'));
    dir = await workspace(base, 'First answer. [^1]');
    await report(dir);
    server = await startServer({ root: dir, port: 0, rebuild: rebuildReport });
  }, 60_000);
  afterAll(async () => server?.close());

  it('serves a fresh report as it is, and rebuilds it when an input changes', async () => {
    const first = await get(server, '/report.html');
    expect([first.status, first.note]).toEqual([200, null]);
    expect(first.body).toContain('First answer.');
    await answerAndGrade(dir, 'Second answer. [^1]');
    const second = await get(server, '/report.html');
    expect(second.status).toBe(200);
    expect(second.note).toMatch(/^rebuilt: .*(grades|run)\.jsonl changed/);
    expect(second.body).toContain('Second answer.');
    expect(second.body).not.toContain('First answer.');
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toBe(second.body);
    expect((await get(server, '/report.html')).note).toBe(null);
  }, 60_000);

  it('never follows a recipe out of the served folder', async () => {
    // Built from files in ws/ but written in ws/sub/: its inputs are inside; one built from ../ is not.
    mkdirSync(join(dir, 'sub'), { recursive: true });
    const outsider = join(base, 'outside');
    mkdirSync(outsider, { recursive: true });
    for (const f of ['grades.jsonl', 'run.jsonl', 'dataset.jsonl'])
      writeFileSync(join(outsider, f), readFileSync(join(dir, f)));
    mkdirSync(join(outsider, 'papers'), { recursive: true });
    writeFileSync(join(outsider, 'papers', 'p1.txt'), PAPER);
    await report(outsider, dir, 'sub/outside.html');
    writeFileSync(join(outsider, 'grades.jsonl'), '');
    const res = await get(server, '/sub/outside.html');
    expect(res.status).toBe(200);
    expect(res.note).toMatch(/^not rebuilt: .* is outside the served folder/);
  }, 60_000);

  it.skipIf(missing !== null)(
    'renders a served report in Chromium with no console error',
    async () => {
      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        const errors: string[] = [];
        page.on('console', (m) => {
          if (m.type() === 'error') errors.push(m.text());
        });
        page.on('pageerror', (e) => errors.push(e.message));
        await page.goto(`${server.url}report.html#rows`);
        await page.waitForSelector('#row-list tbody tr');
        await page.selectOption('select[aria-label=type]', 'lookup');
        await page.locator('#row-list a').first().click();
        await page.waitForSelector('article.answer');
        expect(errors).toEqual([]);
      } finally {
        await browser.close();
      }
    },
    60_000,
  );
});
