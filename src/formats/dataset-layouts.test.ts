import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { datasetMeta, readDataset, writeDataset } from './dataset-io.js';
import { loadDataset } from './dataset-parquet.js';

const fixture = (name: string) =>
  new URL(`./__fixtures__/researchqa-layouts/${name}`, import.meta.url).pathname;
const published = JSON.parse(readFileSync(fixture('eval_dataset.json'), 'utf8')) as {
  rows: Record<string, unknown>[];
  [key: string]: unknown;
};

describe('the published eval_dataset.json layout', () => {
  const read = readDataset(fixture('eval_dataset.json'));

  it('reads every row: string or null rubric, DOI, S3 URL and nested metadata kept', () => {
    expect(read.errors).toEqual([]);
    expect(read.warnings).toEqual([]);
    expect([read.layout, read.evidenceLayout]).toEqual(['eval_dataset.json', 'groups']);
    expect(read.rows.map((r) => r.judge_rubric)).toEqual(published.rows.map((r) => r.judge_rubric));
    expect(read.rows[0]).toMatchObject({
      paper_id: 'https://openalex.org/W4000000001',
      paper_doi: 'https://doi.org/10.0000/example.2026.001',
      paper_s3_url: expect.stringContaining('W4000000001.pdf'),
      metadata: { page_hint: 2, section: 'Methods' },
    });
    expect(read.rows[3]).toMatchObject({ expected_refusal: true, false_premise: expect.any(String) });
    expect(read.envelope).toMatchObject({ source_manifest: 'evals/benchmark_manifest.json' });
  });

  it('writes the published shape back: every field and value of the input kept', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'citegeist-layout-')), 'eval_dataset.json');
    writeDataset(out, read.rows, datasetMeta(read));
    const back = JSON.parse(readFileSync(out, 'utf8')) as typeof published;
    for (const key of Object.keys(published)) {
      if (key !== 'rows') expect(back[key]).toEqual(published[key]);
    }
    for (const [i, row] of published.rows.entries()) {
      expect(back.rows[i]).toMatchObject(row);
      expect(back.rows[i]).not.toHaveProperty('evidence_layout');
    }
  });
});

describe('the hub export', () => {
  // The export writes a null rubric as "" and keeps only the metadata_* copy of three fields: read
  // back, the rows are those of eval_dataset.json.
  const expected = readDataset(fixture('eval_dataset.json')).rows;

  it('reads JSONL (metadata_* columns folded back into metadata)', () => {
    const read = readDataset(fixture('eval_dataset.hub.jsonl'));
    expect([read.layout, read.errors]).toEqual(['hub export (JSONL)', []]);
    expect(read.rows).toEqual(expected);
  });

  it('reads a JSON list of hub rows', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'citegeist-layout-')), 'hub.json');
    const lines = readFileSync(fixture('eval_dataset.hub.jsonl'), 'utf8').trim().split('\n');
    writeFileSync(path, `[${lines.join(',')}]`);
    const read = readDataset(path);
    expect([read.layout, read.errors]).toEqual(['hub export (JSON)', []]);
    expect(read.rows).toEqual(expected);
  });

  it('reads Parquet (absent columns are nulls there)', async () => {
    const read = await loadDataset(fixture('eval_dataset.hub.parquet'));
    expect([read.layout, read.format, read.errors]).toEqual(['hub export (Parquet)', 'parquet', []]);
    expect(read.rows).toEqual(expected);
  });

  it('names a file that is not Parquet', async () => {
    await expect(loadDataset(fixture('W4000000001.txt').replace(/\.txt$/, '.txt.parquet'))).rejects.toThrow(
      /does not exist/,
    );
    const notParquet = join(mkdtempSync(join(tmpdir(), 'citegeist-layout-')), 'x.parquet');
    writeDataset(notParquet.replace('.parquet', '.json'), expected);
    copyFileSync(notParquet.replace('.parquet', '.json'), notParquet);
    await expect(loadDataset(notParquet)).rejects.toMatchObject({ code: 'INVALID_PARQUET' });
  });
});

describe('the earlier flat-list layout', () => {
  const read = readDataset(fixture('eval_dataset.flat.json'));

  it('reads each quote as its own group, says so in a warning', () => {
    expect(read.errors).toEqual([]);
    expect(read.evidenceLayout).toBe('flat');
    expect(read.warnings).toEqual([
      expect.stringMatching(/flat list of quotes.*earlier ResearchQA generator/),
    ]);
    const multiHop = read.rows.find((r) => r.question_type === 'multi_hop')!;
    expect(multiHop.evidence_layout).toBe('flat');
    expect(multiHop.expected_references).toEqual([
      { section_label: 'Methods', alternatives: [expect.stringMatching(/^Self-efficacy was measured/)] },
      { section_label: 'Results', alternatives: [expect.stringMatching(/^Teachers who received coaching/)] },
    ]);
  });

  it('writes the rows back flat', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'citegeist-layout-')), 'd.jsonl');
    writeDataset(out, read.rows);
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const original = JSON.parse(readFileSync(fixture('eval_dataset.flat.json'), 'utf8')) as typeof published;
    expect(lines.map((l) => l.expected_references)).toEqual(original.rows.map((r) => r.expected_references));
  });

  it('refuses a row that mixes quotes and groups, and reads the others', () => {
    const dir = mkdtempSync(join(tmpdir(), 'citegeist-layout-'));
    const path = join(dir, 'mixed.jsonl');
    const base = { paper_id: 'p', question_type: 'lookup', question: 'q' };
    writeFileSync(
      path,
      [
        { ...base, row_id: 'a', expected_references: ['a quote'] },
        {
          ...base,
          row_id: 'b',
          expected_references: ['a quote', { section_label: 'M', alternatives: ['x'] }],
        },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n'),
    );
    const mixed = readDataset(path);
    expect(mixed.rows.map((r) => r.row_id)).toEqual(['a']);
    expect(mixed.errors).toEqual([
      { where: `${path} line 2`, message: expect.stringMatching(/mixes quotes and evidence groups/) },
    ]);
  });
});
