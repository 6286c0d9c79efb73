import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatArgueTsv, type ScoreRow } from '../../grade/index.js';
import { FileLock } from '../../io/index.js';
import { comparePairedItems, type PairwiseTable, pairItems } from '../../stats/index.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

async function cli(dir: string, argv: string[]) {
  const { io, stdout, stderr } = memoryIo({ cwd: dir });
  const code = await runCli(argv, io);
  return { code, out: stdout(), err: stderr() };
}

const dir = () => mkdtempSync(join(tmpdir(), 'citegeist-compare-'));
const jsonl = (rows: unknown[]) => rows.map((r) => `${JSON.stringify(r)}\n`).join('');

/** Two systems' per-item values, with a failed item on A and a not-applicable one on B. */
const A = [0.9, 0.8, 'failed', 0.7, 0.6, 0.95, 0.5, 0.85, 0.4, 0.75] as const;
const B = [0.7, 0.8, 0.6, 0.5, 'not-applicable', 0.9, 0.45, 0.6, 0.3, 0.7] as const;
const ids = A.map((_, i) => `q${String(i).padStart(2, '0')}`);

/** What the one paired module gives on these values (the figures every kind must print). */
function expected() {
  const map = (xs: readonly (number | string)[]) =>
    new Map(ids.map((id, i) => [id, xs[i] as number | 'failed' | 'not-applicable']));
  return comparePairedItems(pairItems(map(A), map(B)), { test: 'randomization', seed: 42 });
}

function checkTable(table: PairwiseTable, metric: string) {
  const row = table.rows.find((r) => r.metric === metric)!;
  const want = expected();
  expect(row.comparison.n).toBe(8);
  expect(row.comparison.dropped).toEqual({ failed: 1, notApplicable: 1 });
  expect(row.comparison.delta.estimate).toBe(want.delta.estimate);
  expect(row.comparison.test.p).toBe(want.test.p);
}

describe('compare on score files other than grades', () => {
  it('faithfulness results: paired on answer ids, failed and n/a left out and printed', async () => {
    const d = dir();
    const rows = (xs: readonly (number | string)[]) =>
      jsonl(
        xs.map((v, i) => ({
          id: ids[i],
          status: typeof v === 'number' ? 'scored' : v,
          score: typeof v === 'number' ? v : null,
          segments: [],
        })),
      );
    writeFileSync(join(d, 'a.jsonl'), rows(A));
    writeFileSync(join(d, 'b.jsonl'), rows(B));
    const json = await cli(d, ['--json', 'compare', 'a.jsonl', 'b.jsonl']);
    expect(json.code, json.err).toBe(0);
    checkTable(JSON.parse(json.out) as PairwiseTable, 'faithfulness');
    const text = await cli(d, ['compare', 'a.jsonl', 'b.jsonl']);
    expect(text.out).toMatch(/a\.jsonl vs b\.jsonl .* 8 +1 failed, 1 n\/a/);
  });

  it('qa-eval scores: per model and metric F, on shared rows', async () => {
    const d = dir();
    const rows = (model: string, xs: readonly (number | string)[]) =>
      jsonl(
        xs.map((v, i) => ({
          row_id: ids[i],
          model,
          n_references: 1,
          status: { rouge1: typeof v === 'number' ? 'scored' : v },
          ...(typeof v === 'number' ? { rouge: { rouge1: { precision: v, recall: v, fmeasure: v } } } : {}),
        })),
      );
    writeFileSync(join(d, 'a.jsonl'), rows('model-a', A));
    writeFileSync(join(d, 'b.jsonl'), rows('model-b', B));
    const r = await cli(d, ['--json', 'compare', 'a.jsonl', 'b.jsonl']);
    expect(r.code, r.err).toBe(0);
    const table = JSON.parse(r.out) as PairwiseTable;
    expect(table.rows[0]).toMatchObject({ a: 'model-a', b: 'model-b', metric: 'rouge1' });
    checkTable(table, 'rouge1');
  });

  it('ARGUE scores TSVs: per topic; a topic the meta lists as failed counts as failed', async () => {
    const d = dir();
    const tsv = (run: string, xs: readonly (number | string)[]) => {
      const rows: ScoreRow[] = [{ runId: run, requestId: 'all', metric: 'f1_micro', value: 0.5 }];
      xs.forEach((v, i) => {
        if (v === 'failed') return; // a failed topic has no rows: the meta names it
        rows.push({
          runId: run,
          requestId: ids[i]!,
          metric: 'nugget_coverage',
          value: typeof v === 'number' ? v : Number.NaN,
        });
      });
      return formatArgueTsv(rows);
    };
    writeFileSync(join(d, 'a.tsv'), tsv('run-a', A));
    writeFileSync(
      join(d, 'a.tsv.meta.json'),
      JSON.stringify({ runs: [{ run_id: 'run-a', failed_topics: [{ topicId: 'q02' }] }] }),
    );
    writeFileSync(join(d, 'b.tsv'), tsv('run-b', B));
    const r = await cli(d, ['--json', 'compare', 'a.tsv', 'b.tsv']);
    expect(r.code, r.err).toBe(0);
    checkTable(JSON.parse(r.out) as PairwiseTable, 'nugget_coverage');
  });

  it('refuses files of different kinds, and a file still being written (RUN_INCOMPLETE)', async () => {
    const d = dir();
    writeFileSync(join(d, 'a.jsonl'), jsonl([{ id: 'q1', status: 'scored', score: 1, segments: [] }]));
    writeFileSync(
      join(d, 'b.tsv'),
      formatArgueTsv([{ runId: 'r', requestId: 'q1', metric: 'f1', value: 1 }]),
    );
    const mixed = await cli(d, ['compare', 'a.jsonl', 'b.tsv']);
    expect(mixed.code).not.toBe(0);
    expect(mixed.err).toMatch(/different kinds/);
    writeFileSync(join(d, 'c.jsonl'), jsonl([{ id: 'q1', status: 'scored', score: 0, segments: [] }]));
    const lock = FileLock.acquire(join(d, 'c.jsonl'), 'citegeist grade faithfulness');
    try {
      const held = await cli(d, ['compare', 'a.jsonl', 'c.jsonl']);
      expect(held.code).not.toBe(0);
      expect(held.err).toMatch(/RUN_INCOMPLETE/);
    } finally {
      lock.release();
    }
  });
});
