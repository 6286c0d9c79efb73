import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type DatasetRow, DatasetRowSchema } from '../core/index.js';
import { readDataset, readDatasetStrict, writeDataset } from './dataset-io.js';

const dir = () => mkdtempSync(join(tmpdir(), 'citegeist-dataset-'));
const row = (id: string, extra: Partial<DatasetRow> = {}): DatasetRow =>
  DatasetRowSchema.parse({
    row_id: id,
    paper_id: 'p1',
    question_type: 'lookup',
    question: 'What?',
    ...extra,
  });

describe('dataset IO', () => {
  const rows = [
    row('p1_chunk0_lookup', {
      expected_references: [{ section_label: 'Methods', alternatives: ['a quote', 'another'] }],
    }),
    row('p1_adversarial0', { question_type: 'adversarial', expected_refusal: true, false_premise: 'x' }),
  ];

  it.each(['d.json', 'd.jsonl'])('round-trips %s', (name) => {
    const path = join(dir(), name);
    writeDataset(path, rows, { version: '2.0', createdAt: '2026-01-01' });
    const back = readDataset(path);
    expect(back.rows).toEqual(rows);
    expect(back.errors).toEqual([]);
    expect(back.format).toBe(name.endsWith('.json') ? 'json' : 'jsonl');
  });

  it('writes the published eval_dataset.json envelope', () => {
    const path = join(dir(), 'eval_dataset.json');
    writeDataset(path, rows, { version: '1.0', createdAt: '2026-01-01T00:00:00Z' });
    const data = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    // generate_dataset.py load_dataset / save_dataset (khoj-ai/openpaper, 0db211cc).
    expect(Object.keys(data)).toEqual([
      'version',
      'created_at',
      'source_manifest',
      'total_rows',
      'total_papers_processed',
      'rows',
      'errors',
    ]);
    expect(data.total_rows).toBe(2);
    expect(data.total_papers_processed).toBe(1);
  });

  it('reads a bare JSON list and a one-row JSONL file that is a single object', () => {
    const d = dir();
    writeFileSync(join(d, 'list.json'), JSON.stringify(rows));
    expect(readDataset(join(d, 'list.json')).rows).toHaveLength(2);
    writeFileSync(join(d, 'one.jsonl'), `${JSON.stringify(rows[0])}\n`);
    expect(readDataset(join(d, 'one.jsonl')).rows).toHaveLength(1);
  });

  it.each([
    ['not json', 'x.jsonl line 2: not JSON'],
    ['{"row_id": "r"}', 'x.jsonl line 2: not a dataset row: field "paper_id"'],
    [JSON.stringify(row('a')), 'x.jsonl line 2: duplicate row_id "a"'],
    [JSON.stringify({ ...row('b'), question_type: 'trivia' }), 'field "question_type"'],
  ])('keeps good rows and reports bad line %j', (bad, message) => {
    const path = join(dir(), 'x.jsonl');
    writeFileSync(path, `${JSON.stringify(row('a'))}\n${bad}\n\n${JSON.stringify(row('c'))}\n`);
    const result = readDataset(path);
    expect(result.rows.map((r) => r.row_id)).toEqual(['a', 'c']);
    expect(result.errors).toHaveLength(1);
    expect(`${result.errors[0]?.where}: ${result.errors[0]?.message}`).toContain(message);
    expect(() => readDatasetStrict(path)).toThrow(/1 row\(s\) of .*x\.jsonl are invalid/);
  });

  it.each([
    ['{"version": "1"}', /without a "rows" list/],
    ['[{"row_id": ', /does not parse/],
  ])('rejects a broken JSON file %j', (text, error) => {
    const path = join(dir(), 'bad.json');
    writeFileSync(path, text);
    expect(() => readDataset(path)).toThrow(error);
  });

  it('reports a bad row of a JSON file by index', () => {
    const path = join(dir(), 'd.json');
    writeFileSync(path, JSON.stringify({ rows: [row('a'), { row_id: 'b' }] }));
    expect(readDataset(path).errors[0]?.where).toMatch(/d\.json rows\[1\]$/);
  });

  it('names a missing file', () => {
    expect(() => readDataset(join(dir(), 'none.jsonl'))).toThrow(/dataset .*none\.jsonl does not exist/);
  });
});
