import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gradesRepeatedScores, parseGrades, type ScoreComparison } from '../../grade/index.js';
import { createRandom, judgeVariance } from '../../stats/index.js';
import { FakeOpenAiServer } from '../../testing/index.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

const N = 16;
const id = (i: number) => `p1_chunk${String(i).padStart(2, '0')}_lookup`;

/** One paper, N lookup questions, and two runs answering them: A about "alpha", B about "beta". */
function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'citegeist-grade-repeats-'));
  mkdirSync(join(dir, 'papers'));
  writeFileSync(join(dir, 'papers', 'p1.md'), '# Paper\n\n## Methods\n\nWe counted facts.\n');
  const rows = Array.from({ length: N }, (_, i) => ({
    row_id: id(i),
    paper_id: 'p1',
    domain: 'ml',
    question_type: 'lookup',
    question: `What is fact ${i}?`,
    expected_answer: `Fact ${i}.`,
    expected_references: [{ section_label: 'Methods', alternatives: ['We counted facts.'] }],
  }));
  writeFileSync(join(dir, 'dataset.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n'));
  for (const [file, word] of [
    ['a.jsonl', 'alpha'],
    ['b.jsonl', 'beta'],
  ] as const) {
    const run = rows.map((r, i) => ({
      row_id: r.row_id,
      model: `local:${word}`,
      answer: `Fact ${i} is about ${word}.`,
      citations: [],
    }));
    writeFileSync(join(dir, file), run.map((r) => JSON.stringify(r)).join('\n'));
  }
  return dir;
}

/**
 * A seeded noisy rubric judge: an answer about "alpha" gets factual accuracy 5 with probability
 * 0.75 (else 4) and completeness 5 with probability 0.5 (else 3); one about "beta" 3 with
 * probability 0.5 (else 2) on both, drawn afresh on every call, so repeats disagree. The third
 * call (seed 2) on A's row 3 always fails: a failed repeat, not a 0.
 */
function noisyJudge(seed: number) {
  const random = createRandom(seed);
  return (request: { messages: { role: string; content: string }[]; body: Record<string, unknown> }) => {
    const user = request.messages.find((m) => m.role === 'user')?.content ?? '';
    const alpha = user.includes('about alpha');
    if (alpha && user.includes('What is fact 3?') && request.body.seed === 2)
      return { status: 400, message: 'bad request' };
    const pick = (p: number, hi: number, lo: number) => (random() < p ? hi : lo);
    return {
      text: JSON.stringify({
        factual_accuracy: alpha ? pick(0.75, 5, 4) : pick(0.5, 3, 2),
        completeness: alpha ? pick(0.5, 5, 3) : pick(0.5, 3, 2),
        justification: 'noisy',
        evidence: [],
      }),
    };
  };
}

describe('grade --judge M --repeats K: the rubric judge judged K times, and its noise in compare', () => {
  it('keeps the mean and every call, counts a failed call as failed, and compare prints rank stability', async () => {
    const dir = workspace();
    const server = await new FakeOpenAiServer({ replies: noisyJudge(28) }).start();
    try {
      const judge = `openai-compatible:${server.url}/v1#noisy`;
      const base = ['grade', '--dataset', 'dataset.jsonl', '--papers', 'papers', '--judge', judge];
      const flags = ['--repeats', '3', '--trust-unlocated-evidence', '--concurrency', '1'];

      // --dry-run counts K calls per row, and calls nothing.
      const dry = memoryIo({ cwd: dir, env: {} });
      const dryArgs = ['--json', ...base, '--run', 'a.jsonl', '--out', 'ga.jsonl', ...flags, '--dry-run'];
      expect(await runCli(dryArgs, dry.io), dry.stderr()).toBe(0);
      expect(JSON.parse(dry.stdout())).toMatchObject({ repeats: 3, rows: N, calls: 3 * N });
      expect(server.requests.length).toBe(0);

      const grade = async (run: string, out: string) => {
        const { io, stdout, stderr } = memoryIo({ cwd: dir, env: {} });
        const code = await runCli([...base, '--run', run, '--out', out, ...flags], io);
        return { code, stdout: stdout(), stderr: stderr() };
      };
      const a = await grade('a.jsonl', 'ga.jsonl');
      // One failed call of 48: reported (exit 1, as any judge failure), the row still scored.
      expect(a.code, a.stderr).toBe(1);
      expect(a.stderr).toMatch(/1 judge failure\(s\) \(recorded as failed, not 0\)/);
      const b = await grade('b.jsonl', 'gb.jsonl');
      expect(b.code, b.stderr).toBe(0);
      expect(server.requests.length).toBe(2 * 3 * N);
      // Each row's three calls are distinct requests (seeds 0, 1, 2), so a cache keeps them apart.
      const seeds = server.requests.slice(0, 3).map((r) => r.body.seed);
      expect(seeds).toEqual([0, 1, 2]);

      const text = readFileSync(join(dir, 'ga.jsonl'), 'utf8');
      const manifest = JSON.parse(text.split('\n', 1)[0]!);
      expect(manifest.settings).toMatchObject({ judge_repeats: 3, judge_temperature: 0 });
      expect(manifest.label).toMatch(/judge_repeats=3/);
      const rows = parseGrades('ga.jsonl', text);
      for (const r of rows) {
        const calls = r.judge_repeats!.factual_accuracy;
        expect(calls).toHaveLength(3);
        const ok = calls.filter((x) => x !== null);
        expect(r.factual_accuracy).toBeCloseTo(ok.reduce((s, x) => s + x, 0) / ok.length, 12);
        expect(r.status.factual_accuracy).toBe('scored');
      }
      const failedRow = rows.find((r) => r.row_id === id(3))!;
      expect(failedRow.judge_repeats!.factual_accuracy[2]).toBeNull();
      expect(failedRow.judge_repeats!.completeness[2]).toBeNull();

      // The summary's judge noise is judgeVariance of each row's calls that did not fail.
      const [fa] = gradesRepeatedScores(rows);
      expect(fa?.metric).toBe('factual_accuracy');
      const noise = judgeVariance(fa!.systems[0]!.items.values());
      expect(noise.items).toBe(N);
      expect(noise.verdictChangeShare).toBeGreaterThan(0);
      expect(a.stdout).toContain(
        `factual_accuracy (${manifest.label}): 3 repeats: within-row sd ${noise.withinItemSd!.toFixed(3)}; score changed between repeats on ${(noise.verdictChangeShare! * 100).toFixed(1)}% of ${N} rows`,
      );
      const summary = JSON.parse(readFileSync(join(dir, 'ga.summary.json'), 'utf8'));
      expect(summary.judge_noise[0]).toMatchObject({ metric: 'factual_accuracy', items: N, repeats: 3 });

      // compare on the two grades files: judge noise and rank stability per judged metric.
      const json = memoryIo({ cwd: dir });
      expect(await runCli(['--json', 'compare', 'ga.jsonl', 'gb.jsonl'], json.io), json.stderr()).toBe(0);
      const table = JSON.parse(json.stdout()) as ScoreComparison;
      expect(table.judge?.map((j) => j.metric)).toEqual(['factual_accuracy', 'completeness']);
      for (const j of table.judge!) {
        expect(j.variance.map((v) => [v.items, v.repeats])).toEqual([
          [N, 3],
          [N, 3],
        ]);
        expect(j.stability.items).toBe(N);
        expect(j.stability.systems.map((s) => s.rank)).toEqual([1, 2]);
        const [pair] = j.stability.pairs;
        expect(pair?.dependsOnJudge).toBe(pair!.significantShare > 0.05 && pair!.significantShare < 0.95);
      }
      // leaderboard on the same files: the same judge noise (judgeNoise, one function for both).
      const lb = memoryIo({ cwd: dir });
      expect(await runCli(['--json', 'leaderboard', 'ga.jsonl', 'gb.jsonl'], lb.io), lb.stderr()).toBe(0);
      const board = JSON.parse(lb.stdout()) as { judge: ScoreComparison['judge'] };
      expect(board.judge?.map((j) => [j.metric, j.variance])).toEqual(
        table.judge!.map((j) => [j.metric, j.variance]),
      );
      const printed = memoryIo({ cwd: dir });
      expect(await runCli(['compare', 'ga.jsonl', 'gb.jsonl'], printed.io)).toBe(0);
      expect(printed.stdout()).toMatch(
        /judge noise on factual_accuracy \(each item judged 3 times; 1,000 resamples, seed 0, 16 shared items\)/,
      );
      expect(printed.stdout()).toMatch(/judge noise on completeness \(each item judged 3 times/);
      expect(printed.stdout()).toMatch(/ vs .*: significant \(t-test\) in \d+\.\d% of redraws — /);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('refuses --repeats without --judge', async () => {
    const dir = workspace();
    const { io, stderr } = memoryIo({ cwd: dir, env: {} });
    const args = ['grade', '--dataset', 'dataset.jsonl', '--papers', 'papers', '--run', 'a.jsonl'];
    expect(await runCli([...args, '--out', 'g.jsonl', '--repeats', '2'], io)).not.toBe(0);
    expect(stderr()).toMatch(/BAD_OPTION[\s\S]*--repeats was given but no --judge/);
  });
});
