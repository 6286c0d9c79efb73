import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { indexDataset, loadDatasetIndex } from './dataset-index.js';
import { readDataset } from './dataset-io.js';

const fixture = (name: string) =>
  new URL(`./__fixtures__/researchqa-layouts/${name}`, import.meta.url).pathname;
const tmp = () => mkdtempSync(join(tmpdir(), 'citegeist-index-'));

/** indexDataset must read a file exactly as readDataset does, rows read back whole on demand. */
function expectSameAsRead(path: string) {
  const read = readDataset(path);
  const index = indexDataset(path);
  try {
    const { rows: _r, close: _c, ...meta } = index;
    const { rows: _rows, ...readMeta } = read;
    expect(meta).toEqual(readMeta);
    expect(index.rows.map((r) => r.load())).toEqual(read.rows);
    expect(index.rows.map((r) => [r.row_id, r.paper_id, r.question_type, r.domain, r.alternatives])).toEqual(
      read.rows.map((r) => [
        r.row_id,
        r.paper_id,
        r.question_type,
        r.domain,
        r.expected_references.reduce((n, g) => n + g.alternatives.length, 0),
      ]),
    );
  } finally {
    index.close();
  }
}

describe('indexDataset reads a dataset as readDataset does, keeping only references', () => {
  it.each(['eval_dataset.json', 'eval_dataset.hub.jsonl', 'eval_dataset.flat.json'])('%s', (name) => {
    expectSameAsRead(fixture(name));
  });

  it('as a JSON list, JSONL and under another extension', () => {
    const d = tmp();
    const rows = (JSON.parse(readFileSync(fixture('eval_dataset.json'), 'utf8')) as { rows: unknown[] }).rows;
    writeFileSync(join(d, 'list.json'), JSON.stringify(rows));
    writeFileSync(join(d, 'rows.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n'));
    copyFileSync(fixture('eval_dataset.json'), join(d, 'dataset.txt'));
    copyFileSync(join(d, 'rows.jsonl'), join(d, 'rows.txt'));
    for (const name of ['list.json', 'rows.jsonl', 'dataset.txt', 'rows.txt'])
      expectSameAsRead(join(d, name));
  });

  it('reads the file again when a hub-export or flat-layout row comes after others', () => {
    const d = tmp();
    const hub = readFileSync(fixture('eval_dataset.hub.jsonl'), 'utf8').trim().split('\n');
    const plain = (JSON.parse(readFileSync(fixture('eval_dataset.json'), 'utf8')) as { rows: unknown[] })
      .rows;
    // A plain row first, then hub rows: the whole file is a hub export (the plain row stays plain).
    writeFileSync(join(d, 'mixed-hub.jsonl'), [JSON.stringify(plain[0]), ...hub.slice(1)].join('\n'));
    expectSameAsRead(join(d, 'mixed-hub.jsonl'));
    // Groups rows, then a flat row: the groups rows become errors (the file is the flat layout).
    const flat = (JSON.parse(readFileSync(fixture('eval_dataset.flat.json'), 'utf8')) as { rows: unknown[] })
      .rows;
    writeFileSync(join(d, 'mixed-flat.json'), JSON.stringify([plain[0], plain[1], flat[2]]));
    expectSameAsRead(join(d, 'mixed-flat.json'));
    expect(readDataset(join(d, 'mixed-flat.json')).errors).toHaveLength(2);
  });

  it('reports bad lines and duplicate ids as readDataset does', () => {
    const d = tmp();
    const plain = (JSON.parse(readFileSync(fixture('eval_dataset.json'), 'utf8')) as { rows: unknown[] })
      .rows;
    writeFileSync(
      join(d, 'bad.jsonl'),
      [JSON.stringify(plain[0]), 'not json', '{"row_id": 3}', JSON.stringify(plain[0])].join('\n'),
    );
    expectSameAsRead(join(d, 'bad.jsonl'));
  });

  it('loadDatasetIndex returns bad rows as errors (the dataset check decides), and reads Parquet whole', async () => {
    const d = tmp();
    writeFileSync(join(d, 'bad.jsonl'), '{"row_id": 3}\n');
    const bad = await loadDatasetIndex(join(d, 'bad.jsonl'));
    expect([bad.rows.length, bad.errors.length]).toEqual([0, 1]);
    bad.close();
    const parquet = await loadDatasetIndex(fixture('eval_dataset.hub.parquet'));
    expect(parquet.rows.map((r) => r.load())).toEqual(readDataset(fixture('eval_dataset.json')).rows);
  });
});

describe('a dataset rewritten while it is graded', () => {
  it('is FILE_CHANGED at the position of the row in a JSON list, as data', () => {
    const path = join(tmp(), 'changing.json');
    const text = readFileSync(fixture('eval_dataset.json'), 'utf8');
    writeFileSync(path, text);
    const index = indexDataset(path);
    try {
      // Same length, so the row's place still frames a value; the value is no longer a row.
      const first = text.indexOf('"row_id"');
      writeFileSync(path, `${text.slice(0, first)}"xow_id"${text.slice(first + 8)}`);
      expect(() => index.rows[0]?.load()).toThrow(
        expect.objectContaining({ code: 'FILE_CHANGED', where: { file: path, row: 0 } }),
      );
    } finally {
      index.close();
    }
  });
});
