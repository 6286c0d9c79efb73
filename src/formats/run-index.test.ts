import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createManifest } from '../core/index.js';
import { indexRun } from './run-index.js';
import { readRun } from './run-io.js';

const fixture = (name: string) =>
  new URL(`./__fixtures__/researchqa-layouts/${name}`, import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'citegeist-run-index-'));
const write = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

/** indexRun must read a run exactly as readRun does, its rows read back whole on demand. */
function expectSameAsRead(path: string, options: { model?: string } = {}) {
  const read = readRun(path, options);
  const index = indexRun(path, options);
  try {
    const { rows: _r, close: _c, ...meta } = index;
    const { rows: _rows, ...readMeta } = read;
    expect(meta).toEqual(readMeta);
    expect(index.rows.map((r) => r.load())).toEqual(read.rows);
    expect(
      index.rows.map((r) => [
        r.row_id,
        r.model,
        r.contract,
        r.latency_ms,
        r.cost_usd,
        r.cached,
        r.error,
        r.citationCount,
      ]),
    ).toEqual(
      read.rows.map((r) => [
        r.row_id,
        r.model,
        r.contract,
        r.latency_ms,
        r.cost_usd,
        r.cached,
        r.error,
        r.citations.length,
      ]),
    );
  } finally {
    index.close();
  }
}

describe('indexRun reads a run as readRun does, keeping only references', () => {
  it.each(['eval_gpt-4.1-mini.json', 'eval_gpt-4.1-mini_baseline.json'])(
    'the published results file %s',
    (name) => {
      expectSameAsRead(fixture(name));
      expectSameAsRead(fixture(name), { model: 'given' });
    },
  );

  it('a results object whose model_name and mode come after its rows, and a bare list', () => {
    const results = JSON.parse(readFileSync(fixture('eval_gpt-4.1-mini.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    const { rows, ...rest } = results;
    expectSameAsRead(
      write('late.json', JSON.stringify({ rows, ...rest, model_name: 'late-model', mode: 'baseline' })),
    );
    expectSameAsRead(write('eval_listed.json', JSON.stringify(rows)));
    copyFileSync(fixture('eval_gpt-4.1-mini.json'), join(dir, 'no-extension'));
    expectSameAsRead(join(dir, 'no-extension'));
  });

  it('citegeist JSONL with and without a manifest, bad lines and repeated ids', () => {
    const row = (id: string, extra: Record<string, unknown> = {}) =>
      JSON.stringify({ row_id: id, model: 'm', citations: [{ key: '1', quote: `q ${id}` }], ...extra });
    const lines = [
      row('a'),
      'not json',
      row('b', { latency_ms: 1200, cached: true }),
      '{"row_id": 5}',
      row('a', { error: 'x' }),
    ];
    expectSameAsRead(write('plain.jsonl', lines.join('\n')));
    const manifest = createManifest({
      kind: 'run',
      label: undefined,
      defaultLabel: 'm',
      settings: {},
      inputs: {},
      version: '0.0.0',
    });
    expectSameAsRead(write('manifest.jsonl', [JSON.stringify(manifest), ...lines].join('\n')));
    expectSameAsRead(write('nomodel.jsonl', '{"row_id": "z", "citations": []}\n'), { model: 'given' });
  });

  it('retries replace failed rows only, and rows without citations are counted, as readRun does', () => {
    const lines = [
      '{"row_id": "a", "model": "m", "error": "timeout"}',
      '{"row_id": "a", "model": "m", "citations": [{"key": "1", "quote": "q"}]}',
      '{"row_id": "a", "model": "m", "citations": []}',
      '{"row_id": "b", "model": "m", "answer": "no citations field"}',
      '{"row_id": "c", "model": "m", "error": "failed, no citations field"}',
    ];
    const path = write('retries.jsonl', lines.join('\n'));
    expectSameAsRead(path);
    const index = indexRun(path);
    expect(index.missingFields).toEqual({ citations: ['b'] });
    expect(index.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/answered row is never replaced/),
    ]);
    index.close();
    const published = write(
      'eval_missing.json',
      JSON.stringify([
        { row_id: 'a', actual_answer: 'x' },
        { row_id: 'b', actual_answer: 'y', actual_citations: null },
        { row_id: 'c', actual_answer: 'z', actual_citations: [] },
        { row_id: 'c', actual_answer: 'again', actual_citations: [] },
      ]),
    );
    expectSameAsRead(published);
    expect(readRun(published).missingFields).toEqual({ actual_citations: ['a', 'b'] });
  });

  it('refuses a second manifest and a broken JSON list as readRun does', () => {
    const manifest = JSON.stringify({ citegeist_manifest: 1 });
    const twice = write('twice.jsonl', `{"row_id": "a", "model": "m"}\n${manifest}\n`);
    expect(() => readRun(twice)).toThrow(/second manifest/);
    expect(() => indexRun(twice)).toThrow(/second manifest/);
    const broken = write('broken.json', '[{"row_id": ');
    expect(() => indexRun(broken)).toThrow(/does not parse/);
  });
});

describe('a run rewritten while it is graded', () => {
  it('is FILE_CHANGED at the line of the row, as data', () => {
    const path = write('changing.jsonl', '{"row_id": "a", "model": "m", "answer": "x"}\n');
    const index = indexRun(path);
    try {
      writeFileSync(path, '{"row_id": 123, "model": "m", "answer": "x"}\n');
      expect(() => index.rows[0]?.load()).toThrow(
        expect.objectContaining({
          code: 'FILE_CHANGED',
          where: { file: path, line: 1 },
          problem: expect.stringContaining('changed while it was graded'),
        }),
      );
    } finally {
      index.close();
    }
  });
});
