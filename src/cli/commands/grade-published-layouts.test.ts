import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runRecords } from '../../testing/index.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

// The published layouts of a small made-up dataset; the results file's per-row metrics and summary
// were computed by the published grader's own code (see the fixture folder's README).
const fixtures = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'formats',
  '__fixtures__',
  'researchqa-layouts',
);
const results = JSON.parse(readFileSync(join(fixtures, 'eval_gpt-4.1-mini.json'), 'utf8')) as {
  rows: Record<string, number | string | null>[];
  summary: { overall: Record<string, number> };
};
const METRICS = ['citation_precision', 'section_coverage', 'citation_accuracy', 'refusal_correctness'];

async function grade(dataset: string, run: string) {
  const dir = mkdtempSync(join(tmpdir(), 'citegeist-published-'));
  // The dataset is checked first (gold evidence included), as a user would before grading: grade
  // then reports that check (no warning: every evidence group is found) instead of a note.
  const checked = memoryIo({ cwd: dir });
  expect(await runCli(['dataset', 'check', join(fixtures, dataset), '--papers', fixtures], checked.io)).toBe(
    0,
  );
  const { io, stdout, stderr } = memoryIo({ cwd: dir });
  const code = await runCli(
    [
      'grade',
      '--dataset',
      join(fixtures, dataset),
      '--papers',
      fixtures,
      '--run',
      join(fixtures, run),
      '--out',
      'g.jsonl',
    ],
    io,
  );
  const grades = runRecords(join(dir, 'g.jsonl')).rows;
  return { code, grades, out: stdout(), err: stderr() };
}

describe('citegeist grade on the published layouts', () => {
  it.each(['eval_dataset.json', 'eval_dataset.hub.jsonl', 'eval_dataset.hub.parquet'])(
    '%s + the harness results file: every row equals the published grader',
    async (dataset) => {
      const { code, grades, err } = await grade(dataset, 'eval_gpt-4.1-mini.json');
      expect(err).toBe('');
      expect(code).toBe(0);
      expect(grades.map((g) => g.model)).toEqual(Array(4).fill('gpt-4.1-mini'));
      for (const [i, row] of results.rows.entries()) {
        for (const m of METRICS)
          expect([row.row_id, m, grades[i]![m]]).toEqual([row.row_id, m, row[m] ?? null]);
      }
      // The multi-hop answer changed "June" to "May" after the 80th character: the published rule
      // accepts it, the strict matcher does not, and the grades row says which rule matched.
      expect(grades[2]).toMatchObject({
        citation_accuracy: 0.5,
        citation_accuracy_strict: 0,
        citation_rules: [
          { key: '1', rule: 'prefix', strict_rule: 'none', prefix_only: true },
          { key: '2', rule: 'none', strict_rule: 'none', prefix_only: false },
        ],
      });
    },
  );

  it('prints the published means and the strict accuracy beside them', async () => {
    const { out } = await grade('eval_dataset.json', 'eval_gpt-4.1-mini.json');
    const overall = results.summary.overall;
    expect(out).toMatch(new RegExp(`Citation accuracy +${overall.citation_accuracy!.toFixed(3)}`));
    expect(out).toMatch(/Citation accuracy \(strict\) +0\.667/);
    expect(out).toMatch(/Prefix-only quotes +1 of 5/);
  });

  it('reads a baseline results file without the citation contract', async () => {
    const { grades } = await grade('eval_dataset.json', 'eval_gpt-4.1-mini_baseline.json');
    expect(grades[0]).toMatchObject({ model: 'gpt-4.1-mini_baseline', citation_precision: null });
    expect((grades[0]!.status as Record<string, string>).citation_precision).toBe('not-applicable');
  });

  it('grades the earlier flat layout as its grader did, and says which layout it read', async () => {
    const { grades, err } = await grade('eval_dataset.flat.json', 'eval_gpt-4.1-mini.json');
    expect(err).toMatch(/warning: .*flat list of quotes/);
    // The adversarial row: that grader also scored precision/recall, and refusal by fuzzy match
    // against the (empty) expected quotes: a citation with nothing expected is 0.
    expect(grades[3]).toMatchObject({ citation_precision: 0, section_coverage: 1, refusal_correctness: 0 });
  });
});
