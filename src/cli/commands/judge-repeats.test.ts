import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repeatScores, type ScoreComparison } from '../../grade/index.js';
import { createRandom, judgeVariance } from '../../stats/index.js';
import { FakeOpenAiServer } from '../../testing/index.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

const between = (text: string, tag: string) =>
  new RegExp(`<${tag}[^>]*>\\n([\\s\\S]*?)\\n</${tag}>`).exec(text)?.[1] ?? '';

/**
 * A seeded noisy judge behind the fake OpenAI-compatible server: each answer's one claim is
 * supported with probability 0.85 when it is about "alpha" (system A) and 0.35 about "beta"
 * (system B), drawn afresh on every call, so repeats disagree; harm is always 3.
 */
function noisyJudge(seed: number) {
  const random = createRandom(seed);
  return (request: { messages: { role: string; content: string }[] }) => {
    const system = request.messages[0]?.content ?? '';
    const user = request.messages.find((m) => m.role === 'user')?.content ?? '';
    if (system.includes('atomic claims'))
      return { text: JSON.stringify({ claims: [between(user, 'passage').replace(/ \[\d+\]/g, '')] }) };
    if (system.includes('harm potential')) return { text: JSON.stringify({ harm: 3, rationale: 'fixed' }) };
    const p = between(user, 'claim').includes('alpha') ? 0.85 : 0.35;
    return {
      text: JSON.stringify(
        random() < p
          ? { verdict: 'supported', rationale: 'noisy', evidence_quote: between(user, 'excerpt') }
          : { verdict: 'unsupported', rationale: 'noisy' },
      ),
    };
  };
}

const answers = (word: string) =>
  Array.from({ length: 16 }, (_, i) =>
    JSON.stringify({
      id: `q${String(i).padStart(2, '0')}`,
      question: 'Q',
      answer: `Fact ${i} is about ${word} [1].`,
      sources: { '1': `Fact ${i} is about ${word}.` },
    }),
  ).join('\n');

describe('judging K times (grade faithfulness --repeats) and the judge noise of a comparison', () => {
  it('prints the judge noise of each run and, in compare, rank stability and which differences depend on the judge', async () => {
    const server = await new FakeOpenAiServer({ replies: noisyJudge(28) }).start();
    try {
      const dir = mkdtempSync(join(tmpdir(), 'citegeist-repeats-'));
      writeFileSync(join(dir, 'a.jsonl'), `${answers('alpha')}\n`);
      writeFileSync(join(dir, 'b.jsonl'), `${answers('beta')}\n`);
      const judge = `openai-compatible:${server.url}/v1#noisy`;
      const grade = async (from: string, out: string, label: string) => {
        const { io, stdout, stderr } = memoryIo({ cwd: dir, env: {} });
        const argv = ['grade', 'faithfulness', '--answers', from, '--judge', judge, '--out', out];
        const code = await runCli(
          [...argv, '--label', label, '--repeats', '3', '--p', '1', '--concurrency', '1'],
          io,
        );
        expect(code, stderr()).toBe(0);
        return stdout();
      };
      const textA = await grade('a.jsonl', 'fa.jsonl', 'A');
      await grade('b.jsonl', 'fb.jsonl', 'B');
      // 16 decompositions + 16 claims × 3 repeats × (verification + harm), per run.
      expect(server.requests.length).toBe(2 * (16 + 16 * 3 * 2));
      // Each answer scored by each repeat alone: the summary's judge noise is judgeVariance of those.
      const rowsA = readFileSync(join(dir, 'fa.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
        .filter((r) => r.segments);
      const perAnswer = rowsA.map((r) => repeatScores(r)!);
      expect(perAnswer.every((k) => k.length === 3)).toBe(true);
      const noise = judgeVariance(perAnswer);
      expect(noise.verdictChangeShare).toBeGreaterThan(0);
      expect(textA).toMatch(/judge noise +3 repeats/);
      expect(textA).toContain(
        `3 repeats: within-answer sd ${noise.withinItemSd!.toFixed(3)}; score changed between repeats on ${(noise.verdictChangeShare! * 100).toFixed(1)}% of 16 answers`,
      );

      const { io, stdout, stderr } = memoryIo({ cwd: dir });
      expect(await runCli(['--json', 'compare', 'fa.jsonl', 'fb.jsonl'], io), stderr()).toBe(0);
      const table = JSON.parse(stdout()) as ScoreComparison;
      expect(table.judge?.[0]?.variance.map((v) => [v.label, v.items, v.repeats])).toEqual([
        ['A', 16, 3],
        ['B', 16, 3],
      ]);
      expect(table.judge?.map((j) => j.metric)).toEqual(['faithfulness']);
      const stability = table.judge![0]!.stability;
      expect(stability.items).toBe(16);
      expect(stability.systems.map((s) => [s.label, s.rank])).toEqual([
        ['A', 1],
        ['B', 2],
      ]);
      for (const s of stability.systems) expect(s.keepsRank).toBeGreaterThan(0.5);
      const [pair] = stability.pairs;
      expect(pair?.significantShare).toBeGreaterThanOrEqual(0);
      expect(pair?.dependsOnJudge).toBe(pair!.significantShare > 0.05 && pair!.significantShare < 0.95);
      const text = memoryIo({ cwd: dir });
      expect(await runCli(['compare', 'fa.jsonl', 'fb.jsonl'], text.io)).toBe(0);
      expect(text.stdout()).toMatch(
        /judge noise on faithfulness \(each item judged 3 times; 1,000 resamples, seed 0, 16 shared items\)/,
      );
      expect(text.stdout()).toMatch(/A vs B: significant \(t-test\) in \d+\.\d% of redraws — /);
    } finally {
      await server.close();
    }
  }, 120_000);
});
