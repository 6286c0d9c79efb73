import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDocumentFile } from '../../ingest/index.js';
import { sharedDataPath } from '../../testing/shared-data.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';
import type { QuoteRow } from './quote.js';

const PAPER = `# A Tiny Paper

## Introduction

We study quote matching on scientific papers.
Models often paraphrase when asked to quote.

## Method

### Data

We collect 500 quotes from 20 papers [12].
`;

function workspace(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'citegeist-quote-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

async function run(args: string[], cwd: string) {
  const { io, stdout, stderr } = memoryIo({ cwd });
  const code = await runCli(args, io);
  return { code, out: stdout(), err: stderr() };
}

describe('citegeist quote', () => {
  it('is listed in --help', async () => {
    const { code, out } = await run(['--help'], process.cwd());
    expect(code).toBe(0);
    expect(out).toMatch(/quote/);
  });

  it('prints one line per quote in input order, then a summary, and exits 0 despite misses', async () => {
    const cwd = workspace({
      'paper.md': PAPER,
      'quotes.txt':
        'we study quote matching\n\nthis sentence is not in the paper at all\nWe collect 500 quotes from 20 papers\n',
    });
    const { code, out } = await run(['quote', '--paper', 'paper.md', '--quotes', 'quotes.txt'], cwd);
    expect(code).toBe(0);
    const lines = out.trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^line 1 +matched +exact +\[\d+, \d+\) +page - +section "Introduction"/);
    expect(lines[1]).toMatch(/^line 3 +missed +similarity 0\.\d{3} +nearest \[\d+, \d+\)/);
    expect(lines[2]).toMatch(/^line 4 +matched +exact .*section "Data"/);
    expect(lines[3]).toBe('matched 2/3 (exact 2); missed 1; failed 0; mode researchqa');
  });

  it('prints a JSON array with matched, rule, start, end, page, section (and nearest on a miss)', async () => {
    const cwd = workspace({
      'paper.md': PAPER,
      'quotes.jsonl': [
        '{"quote": "Models often paraphrase when asked to quote."}',
        '{"quote": "We collect 500 quotes from 20 papers."}',
        '{"quote": "We collect 600 quotes from 20 papers."}',
      ].join('\n'),
    });
    const { code, out } = await run(
      ['quote', '--paper', 'paper.md', '--quotes', 'quotes.jsonl', '--json', '--mode', 'strict'],
      cwd,
    );
    expect(code).toBe(0);
    const rows = JSON.parse(out) as QuoteRow[];
    expect(rows.map((r) => [r.line, r.matched, r.rule, r.section])).toEqual([
      [1, true, 'exact', 'Introduction'],
      [2, true, 'exact', 'Data'],
      [3, false, 'none', null],
    ]);
    const hit = rows[1]!;
    // Spans index the paper's canonical text (Document.text), as `citegeist show --json` prints it.
    const [doc] = await readDocumentFile(join(cwd, 'paper.md'));
    expect(doc!.text.slice(hit.start!, hit.end!)).toBe('We collect 500 quotes from 20 papers');
    expect(hit.page).toBeNull();
    const miss = rows[2]!;
    expect(miss.nearest?.text).toMatch(/We collect 500 quotes/);
    expect(miss.nearest?.section).toBe('Data');
    expect(miss.similarity).toBeGreaterThan(0.5);
  });

  it('reports bad JSONL lines with their line numbers, keeps going and exits 1', async () => {
    const cwd = workspace({
      'paper.md': PAPER,
      'quotes.jsonl': [
        '{"quote": "we study quote matching"}',
        '{not json',
        '{"quote": 42}',
        '{"text": "no quote field"}',
        '["an array"]',
        '',
        '{"quote": "Models often paraphrase"}',
      ].join('\n'),
    });
    const { code, out } = await run(
      ['quote', '--paper', 'paper.md', '--quotes', 'quotes.jsonl', '--json'],
      cwd,
    );
    expect(code).toBe(1);
    const rows = JSON.parse(out) as QuoteRow[];
    expect(rows.map((r) => [r.line, r.status])).toEqual([
      [1, 'matched'],
      [2, 'failed'],
      [3, 'failed'],
      [4, 'failed'],
      [5, 'failed'],
      [7, 'matched'],
    ]);
    expect(rows[1]!.error).toMatch(/quotes\.jsonl line 2: not valid JSON/);
    expect(rows[2]!.error).toMatch(/quotes\.jsonl line 3, field "quote": must be a string, got 42/);
    expect(rows[3]!.error).toMatch(/line 4, field "quote": must be a string, got nothing/);
    expect(rows[4]!.error).toMatch(/line 5: expected an object with a "quote" field/);
  });

  it.each([
    [
      ['--paper', 'paper.pdf', '--quotes', 'quotes.txt'],
      /INGEST_PDF_CORRUPT.*paper\.pdf is not a readable PDF[\s\S]*fix: /,
    ],
    [['--paper', 'missing.md', '--quotes', 'quotes.txt'], /PAPER_NOT_FOUND.*"missing\.md" is neither a file/],
    [['--paper', 'paper.md', '--quotes', 'quotes.csv'], /UNKNOWN_LAYOUT[\s\S]*fix: Give a \.txt/],
    [['--paper', 'paper.md', '--quotes', 'quotes.txt', '--mode', 'fuzzy'], /BAD_OPTION.*"fuzzy"/],
  ])('refuses bad input %j with problem and fix, exit 1', async (args, message) => {
    const cwd = workspace({
      'paper.md': PAPER,
      'paper.pdf': '%PDF',
      'quotes.txt': 'x\n',
      'quotes.csv': 'x\n',
    });
    const { code, err } = await run(['quote', ...args], cwd);
    expect(code).toBe(1);
    expect(err).toMatch(message);
  });

  it('requires --paper and --quotes', async () => {
    const { code, err } = await run(['quote', '--paper', 'x.md'], process.cwd());
    expect(code).toBe(2);
    expect(err).toMatch(/--quotes/);
  });

  it('locates sentences of a real QASPER paper and names their sections', async () => {
    const paperPath = sharedDataPath('qasper-dev', 'papers', '1503.00841.txt');
    const [doc] = await readDocumentFile(paperPath);
    const quotes = [
      'We posses a wealth of prior knowledge about many natural language processing tasks.',
      'A labeled feature is a strong indicator of a specific class and is manually provided to the classifier.',
      'We posses a wealth of knowledge about many natural language processing tasks.',
    ];
    const cwd = workspace({ 'quotes.txt': quotes.join('\n') });
    const { code, out } = await run(
      ['quote', '--paper', paperPath, '--quotes', 'quotes.txt', '--json', '--mode', 'strict'],
      cwd,
    );
    expect(code).toBe(0);
    const rows = JSON.parse(out) as QuoteRow[];
    expect(rows.map((r) => [r.matched, r.rule, r.section])).toEqual([
      [true, 'exact', 'Introduction'],
      [true, 'exact', 'Method'],
      [false, 'none', null],
    ]);
    expect(doc!.text.slice(rows[0]!.start!, rows[0]!.end!)).toBe(quotes[0]!.slice(0, -1));
    expect(rows[2]!.nearest?.section).toBe('Introduction');
  });
});
