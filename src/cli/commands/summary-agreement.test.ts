import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { aggregateGrades, parseGradesFile } from '../../grade/index.js';
import { buildReportFromFiles } from '../../report/index.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

const SENTENCES = Array.from(
  { length: 8 },
  (_, i) =>
    `Finding ${i + 1}: the measured effect in cohort ${i + 1} was ${10 + i * 7} percent over baseline.`,
);

/**
 * A paper, a 24-row dataset and a run whose rows are in another order than the dataset's and
 * whose citations are right, half right or wrong, so every metric has a spread of values and a
 * bootstrap interval that changes with the order of its values.
 */
function workspace(options: { model?: string; allRight?: boolean } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'citegeist-agree-'));
  mkdirSync(join(dir, 'papers'));
  writeFileSync(
    join(dir, 'papers', 'p1.md'),
    `# Paper\n\n${SENTENCES.map((s, i) => `## Section ${i + 1}\n\n${s}\n`).join('\n')}`,
  );
  const dataset = Array.from({ length: 24 }, (_, i) => ({
    row_id: `p1_q${String((i * 7) % 24).padStart(2, '0')}`,
    paper_id: 'p1',
    domain: 'science',
    question_type: i % 3 === 0 ? 'lookup' : 'multi_hop',
    question: `Question ${i}?`,
    expected_answer: 'x',
    expected_references: [0, 2, 4, 6].map((k) => ({
      section_label: `Section ${((i + k) % 8) + 1}`,
      alternatives: [SENTENCES[(i + k) % 8]!],
    })),
  }));
  writeFileSync(join(dir, 'dataset.jsonl'), dataset.map((r) => JSON.stringify(r)).join('\n'));
  // Row i cites (i mod 5) of its four expected sentences and makes up the rest of four quotes.
  const run = dataset
    .map((r, i) => ({
      row_id: r.row_id,
      model: options.model ?? 'extractive',
      answer: 'a [^1] [^2] [^3] [^4]',
      citations: [0, 2, 4, 6].map((k, j) => ({
        key: String(j + 1),
        quote:
          options.allRight || j < i % 5
            ? SENTENCES[(i + k) % 8]!
            : `A sentence ${i}-${j} that is not in the paper at all.`,
      })),
      latency_ms: 100 + i * 13,
    }))
    .reverse();
  writeFileSync(join(dir, 'run.jsonl'), run.map((r) => JSON.stringify(r)).join('\n'));
  return dir;
}

async function cli(dir: string, argv: string[]): Promise<string> {
  const { io, stdout, stderr } = memoryIo({ cwd: dir });
  const code = await runCli(argv, io);
  expect(code, stderr()).toBe(0);
  return stdout();
}

/** What every command shows of one run: per metric n, mean and interval, serialised. */
const figures = (metrics: Record<string, { n: number; mean: number | null; ci: unknown }>) =>
  JSON.stringify(Object.entries(metrics).map(([id, m]) => [id, m.n, m.mean, m.ci]));

type Models = {
  models: { overall: { metrics: Record<string, { n: number; mean: number | null; ci: unknown }> } }[];
};

describe('one grades file gives one set of figures in every command', () => {
  it('grade, a re-run of grade, .summary.json, leaderboard, the report data and the library agree byte for byte', async () => {
    const dir = workspace();
    const grade = [
      '--json',
      'grade',
      '--dataset',
      'dataset.jsonl',
      '--papers',
      'papers',
      '--run',
      'run.jsonl',
    ];
    const first = JSON.parse(await cli(dir, [...grade, '--out', 'g.jsonl'])) as Models;
    const summaryFile = () => JSON.parse(readFileSync(join(dir, 'g.summary.json'), 'utf8')) as Models;
    const fromSummary = figures(summaryFile().models[0]!.overall.metrics);
    const expected = figures(first.models[0]!.overall.metrics);
    expect(fromSummary).toBe(expected);

    // The same rows in other orders in the file (reversed, odd then even lines).
    const [manifest, ...rows] = readFileSync(join(dir, 'g.jsonl'), 'utf8').trim().split('\n');
    const reversed = [manifest, ...[...rows].reverse()];
    const interleaved = [
      manifest,
      ...rows.filter((_, i) => i % 2 === 1),
      ...rows.filter((_, i) => i % 2 === 0),
    ];
    writeFileSync(join(dir, 'reversed.jsonl'), `${reversed.join('\n')}\n`);
    writeFileSync(join(dir, 'interleaved.jsonl'), `${interleaved.join('\n')}\n`);

    // A re-run of grade on the reordered file keeps every row (in the file's order) and rewrites
    // the summary: the same figures.
    writeFileSync(join(dir, 'g.jsonl'), `${reversed.join('\n')}\n`);
    const again = JSON.parse(await cli(dir, [...grade, '--out', 'g.jsonl'])) as Models;
    expect(figures(again.models[0]!.overall.metrics)).toBe(expected);
    expect(figures(summaryFile().models[0]!.overall.metrics)).toBe(expected);

    for (const file of ['g.jsonl', 'reversed.jsonl', 'interleaved.jsonl']) {
      const board = JSON.parse(await cli(dir, ['--json', 'leaderboard', file])) as Models;
      expect(figures(board.models[0]!.overall.metrics)).toBe(expected);
      const { data } = await buildReportFromFiles(
        { grades: [file], out: 'r.html', paperText: 'none', seed: 0 },
        dir,
      );
      expect(figures(data.runs[0]!.overall.metrics as never)).toBe(expected);
      const text = readFileSync(join(dir, file), 'utf8');
      const library = aggregateGrades(parseGradesFile(join(dir, file), text).rows);
      expect(figures(library[0]!.overall.metrics)).toBe(expected);
    }
  });
});

describe('leaderboard: pairwise comparisons under the means', () => {
  it('prints Δ, CI, p and adjusted p per metric, and --json carries the table', async () => {
    const dir = workspace();
    const base = ['grade', '--dataset', 'dataset.jsonl', '--papers', 'papers'];
    await cli(dir, [...base, '--run', 'run.jsonl', '--out', 'a.jsonl']);
    const right = workspace({ model: 'oracle', allRight: true });
    writeFileSync(join(dir, 'run2.jsonl'), readFileSync(join(right, 'run.jsonl')));
    await cli(dir, [...base, '--run', 'run2.jsonl', '--out', 'b.jsonl']);
    const text = await cli(dir, [
      'leaderboard',
      'a.jsonl',
      'b.jsonl',
      '--test',
      't',
      '--correction',
      'bonferroni',
    ]);
    expect(text).toMatch(/pairwise comparisons: paired t-test .*Bonferroni-adjusted over \d+ comparisons/);
    expect(text).toMatch(
      /Citation precision\n\s+A vs B.*\n\s+extractive vs oracle\s+-0\.521\s+\[-0\.\d+, -0\.\d+\]\s+<0\.0001\s+<0\.0001 \*\s+24\s+0/,
    );
    expect(text).toMatch(/best: oracle; every other system is significantly worse/);
    const json = JSON.parse(await cli(dir, ['--json', 'leaderboard', 'a.jsonl', 'b.jsonl'])) as {
      pairwise: {
        test: string;
        correction: string;
        rows: { metric: string; comparison: { n: number; test: { p: number } } }[];
      };
    };
    expect(json.pairwise).toMatchObject({ test: 'randomization', correction: 'holm' });
    const precision = json.pairwise.rows.find((r) => r.metric === 'citation_precision')!;
    expect(precision.comparison.n).toBe(24);
    expect(precision.comparison.test.p).toBeLessThan(0.001);
    // compare on the two grades files, on its defaults: the same table as leaderboard's, byte for byte.
    const compared = JSON.parse(await cli(dir, ['--json', 'compare', 'a.jsonl', 'b.jsonl'])) as unknown;
    expect(JSON.stringify(compared)).toBe(JSON.stringify(json.pairwise));
    const wilcoxon = await cli(dir, ['compare', 'a.jsonl', 'b.jsonl', '--test', 'wilcoxon']);
    expect(wilcoxon).toMatch(/Wilcoxon signed-rank test .*seed 0\)/);
  });

  it('refuses files made on different datasets, or sharing too few items, naming both and the overlap', async () => {
    const dir = workspace();
    const base = ['grade', '--dataset', 'dataset.jsonl', '--papers', 'papers'];
    await cli(dir, [...base, '--run', 'run.jsonl', '--out', 'a.jsonl']);
    const other = workspace({ model: 'oracle' });
    // The same questions under another dataset file (one extra row): another dataset hash.
    writeFileSync(
      join(dir, 'dataset2.jsonl'),
      `${readFileSync(join(other, 'dataset.jsonl'), 'utf8')}\n${JSON.stringify({ row_id: 'extra', paper_id: 'p1', domain: 'x', question_type: 'lookup', question: 'q?', expected_answer: 'x', expected_references: [] })}`,
    );
    writeFileSync(join(dir, 'run2.jsonl'), readFileSync(join(other, 'run.jsonl')));
    await cli(dir, [
      'grade',
      '--dataset',
      'dataset2.jsonl',
      '--papers',
      'papers',
      '--run',
      'run2.jsonl',
      '--out',
      'b.jsonl',
    ]);
    const refused = memoryIo({ cwd: dir });
    expect(await runCli(['leaderboard', 'a.jsonl', 'b.jsonl'], refused.io)).not.toBe(0);
    expect(refused.stderr()).toMatch(
      /COMPARE_DATASET_MISMATCH.*a\.jsonl and b\.jsonl were made on different datasets.*24 shared item\(s\) of 24 in a\.jsonl and 24 in b\.jsonl/s,
    );
    const few = memoryIo({ cwd: dir });
    expect(await runCli(['leaderboard', 'a.jsonl', 'a.jsonl', '--min-shared', '30'], few.io)).not.toBe(0);
    expect(few.stderr()).toMatch(
      /COMPARE_TOO_FEW_SHARED.*24 shared item\(s\) of 24 in a\.jsonl and 24 in a\.jsonl \(at least 30 needed\)/s,
    );
  });
});
