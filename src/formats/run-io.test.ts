import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRun } from './run-io.js';

const write = (name: string, text: string) => {
  const path = join(mkdtempSync(join(tmpdir(), 'citegeist-run-')), name);
  writeFileSync(path, text);
  return path;
};

describe('readRun', () => {
  it('gives the sha256 of the bytes it read, in either layout (a report need not read the file again)', () => {
    const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
    const published = write(
      'm.json',
      JSON.stringify([{ row_id: 'a', actual_answer: 'x', actual_citations: [] }]),
    );
    const jsonl = write(
      'm.jsonl',
      `${JSON.stringify({ row_id: 'a', model: 'm', answer: 'x', citations: [] })}\n`,
    );
    expect(readRun(published).sha256).toBe(sha(published));
    expect(readRun(jsonl).sha256).toBe(sha(jsonl));
  });

  it('reads the published results layout', () => {
    const path = write(
      'gemini-3.1-pro.json',
      JSON.stringify([
        {
          row_id: 'a',
          actual_answer: 'x [^1]',
          actual_citations: [{ key: '1', reference: 'quote one' }],
          latency_seconds: 2.5,
        },
        { row_id: 'b', actual_answer: null, actual_citations: [] },
        { row_id: 'c', actual_citations: [{ key: 1, reference: 5 }] },
      ]),
    );
    const run = readRun(path);
    expect(run.format).toBe('published');
    expect(run.models).toEqual(['gemini-3.1-pro']);
    expect(run.rows[0]).toMatchObject({
      row_id: 'a',
      answer: 'x [^1]',
      citations: [{ key: '1', quote: 'quote one' }],
      latency_ms: 2500,
      contract: true,
    });
    expect(run.rows[1]?.answer).toBe('');
    expect(run.errors).toEqual([
      { where: `${path} [2]`, message: 'field "actual_citations.0.reference": not a string' },
    ]);
  });

  it.each([
    // a retry replaces a failed row; a repeat of an answered row is refused (the first is kept)
    [
      '{"row_id":"a","model":"m","answer":"","error":"HTTP 503"}\n{"row_id":"a","model":"m","answer":"retried"}\n',
      ['retried'],
      0,
    ],
    ['{"row_id":"a","model":"m","answer":"x"}\n{"row_id":"a","model":"m","answer":"again"}\n', ['x'], 1],
    ['{"row_id":"a","answer":"x"}\nbroken\n{"model":"m"}\n', ['x'], 2],
  ])('reads citegeist JSONL %#', (text, answers, errors) => {
    const run = readRun(write('run.jsonl', text), { model: 'given' });
    expect(run.format).toBe('citegeist');
    expect(run.rows.map((r) => r.answer)).toEqual(answers);
    expect(run.errors).toHaveLength(errors);
  });

  it('names a broken JSON list', () => {
    expect(() => readRun(write('r.json', '[{"row_id": '))).toThrow(
      /r\.json starts like a JSON list but does not parse/,
    );
  });
});
