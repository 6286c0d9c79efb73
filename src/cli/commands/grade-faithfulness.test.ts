import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import {
  type Script,
  scriptedJudge,
  scriptedReply,
} from '../../grade/vetscore/__fixtures__/scripted-judge.js';
import { arbitraryReplies, FakeOpenAiServer } from '../../testing/index.js';
import { createContext } from '../context.js';
import { reportError } from '../errors.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';
import { gradeFaithfulnessCommand } from './grade-faithfulness.js';

const script: Script = {
  segments: {
    'Meloxicam is an NSAID [1].': ['Meloxicam is an NSAID.'],
    'The dose is 2 mg/kg [2].': ['The meloxicam dose is 2 mg/kg.'],
    'Dogs are mammals [1].': ['Dogs are mammals.'],
  },
  claims: {
    'Meloxicam is an NSAID.': { verdict: 'supported', harm: 2 },
    'The meloxicam dose is 2 mg/kg.': { verdict: ['contradicted', 'fail'], harm: 5 },
    'Dogs are mammals.': { verdict: 'supported', harm: 1 },
  },
};

const rows = [
  {
    id: 'a',
    question: 'Q',
    answer: 'Meloxicam is an NSAID [1]. The dose is 2 mg/kg [2].',
    sources: { '1': 'NSAID', '2': '0.2 mg/kg' },
  },
  { id: 'b', question: 'Q', answer: 'Dogs are mammals [1].', sources: { '1': 'Dogs are mammals.' } },
];

async function run(argv: string[], dir: string, llm = scriptedJudge(script)) {
  const { io, stdout, stderr } = memoryIo({ cwd: dir });
  const program = new Command('citegeist').option('--json').exitOverride();
  const ctx = createContext(program, io, async () => 0);
  gradeFaithfulnessCommand(() => ({ provider: () => llm, close() {} }))(program, ctx);
  let code: number;
  try {
    await program.parseAsync(argv, { from: 'user' });
    code = ctx.exitCode;
  } catch (error) {
    code = reportError(error, io, false);
  }
  return { code, out: stdout(), err: stderr(), llm };
}

function workspace(lines: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'faith-'));
  writeFileSync(join(dir, 'answers.jsonl'), `${lines.join('\n')}\n`);
  return dir;
}

const args = [
  'grade',
  'faithfulness',
  '--answers',
  'answers.jsonl',
  '--judge',
  'fake:judge',
  '--out',
  'out.jsonl',
  '--p',
  '1',
];

describe('citegeist grade faithfulness', () => {
  it('grades, writes one row per answer, prints the summary and the unsupported claims by harm', async () => {
    const dir = workspace([...rows.map((r) => JSON.stringify(r)), '{broken']);
    const { code, out, err } = await run(args, dir);
    expect(code).toBe(1); // one input row skipped
    expect(err).toMatch(/skipped \[INVALID_INPUT\] answers\.jsonl line 3: not JSON/);
    const [manifest, ...written] = readFileSync(join(dir, 'out.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(written.map((r) => [r.id, r.score])).toEqual(
      expect.arrayContaining([
        ['a', 1 - 5 / 7],
        ['b', 1],
      ]),
    );
    expect(out).toMatch(/answers\s+2 \(scored 2/);
    expect(out).toMatch(/w=5 contradicted\s+a §1\.0\s+The meloxicam dose is 2 mg\/kg\./);
    expect(manifest).toMatchObject({ kind: 'faithfulness', settings: { p: 1, mode: 'separate' } });
  });

  it('resumes by answer id and retries only failed answers', async () => {
    const dir = workspace(rows.map((r) => JSON.stringify(r)));
    const failing = scriptedJudge({
      ...script,
      claims: { ...script.claims, 'Dogs are mammals.': { verdict: 'fail', harm: 'fail' } },
    });
    const first = await run(args, dir, failing);
    expect(first.code).toBe(1);
    const second = await run([...args, '--json'], dir);
    expect(second.code).toBe(0);
    const report = JSON.parse(second.out);
    expect(report.summary).toMatchObject({ answers: 2, scored: 2, failed: 0, resumed: 1 });
    expect(second.llm.calls.every((c) => !c.messages[1]?.content.includes('Meloxicam'))).toBe(true);
  });

  it('refuses to resume with other settings', async () => {
    const dir = workspace(rows.map((r) => JSON.stringify(r)));
    await run(args, dir);
    const { code, err } = await run([...args.slice(0, -2), '--p', '2'], dir);
    expect(code).toBe(1);
    expect(err).toMatch(/RUN_MANIFEST_MISMATCH/);
    // Trusting unlocated evidence changes the scores too, wherever the flag is written.
    const trusted = await run([...args, '--trust-unlocated-evidence'], dir);
    expect(trusted.code).toBe(1);
    expect(trusted.err).toMatch(
      /RUN_MANIFEST_MISMATCH[\s\S]*trust_unlocated_evidence: false in the file, true now/,
    );
  });

  it.each([
    [['--p', '-1'], /--p must be a number at least 0, got "-1"/],
    [['--repeats', '1.5'], /--repeats must be a whole number at least 1, got "1.5"/],
    [['--rubric', 'nope'], /FILE_NOT_FOUND/],
  ])('rejects %j', async (extra, error) => {
    const dir = workspace(rows.map((r) => JSON.stringify(r)));
    const { code, err } = await run([...args, ...extra], dir);
    expect(code).not.toBe(0);
    expect(err).toMatch(error);
  });

  it('needs a judge', async () => {
    const dir = workspace(rows.map((r) => JSON.stringify(r)));
    const { err } = await run(
      ['grade', 'faithfulness', '--answers', 'answers.jsonl', '--out', 'o.jsonl'],
      dir,
    );
    expect(err).toMatch(/MODEL_REQUIRED/);
  });

  it('registers on an existing grade command instead of adding a second one', () => {
    const program = new Command('x');
    const grade = program
      .command('grade')
      .option('--dataset <f>')
      .action(() => {});
    gradeFaithfulnessCommand(() => ({ provider: () => scriptedJudge(script), close() {} }))(
      program,
      createContext(program, memoryIo().io, async () => 0),
    );
    expect(program.commands.filter((c) => c.name() === 'grade')).toHaveLength(1);
    expect(grade.commands.map((c) => c.name())).toEqual(['faithfulness']);
  });

  it('the real CLI builds real providers (a missing API key is a clear error)', async () => {
    const dir = workspace(rows.map((r) => JSON.stringify(r)));
    const { io, stderr } = memoryIo({ cwd: dir, env: {} });
    const code = await runCli(
      [
        'grade',
        'faithfulness',
        '--answers',
        'answers.jsonl',
        '--judge',
        'openai:gpt-4.1-mini',
        '--out',
        'o.jsonl',
      ],
      io,
    );
    expect(code).toBe(1);
    expect(stderr()).toMatch(/OPENAI_API_KEY/);
  });

  it('runs end to end through the real provider layer against a fake OpenAI-compatible server', async () => {
    const reply = scriptedReply(script);
    const server = await new FakeOpenAiServer({
      replies: (request) => {
        const r = reply({ messages: request.messages });
        return typeof r === 'string' ? { text: r } : { status: 400, message: r.fail };
      },
    }).start();
    try {
      const dir = workspace(rows.map((r) => JSON.stringify(r)));
      const { io, stdout } = memoryIo({ cwd: dir, env: {} });
      const judge = `openai-compatible:${server.url}/v1#judge-model`;
      const code = await runCli(
        ['--json', ...args.slice(0, 5), judge, ...args.slice(6), '--concurrency', '2'],
        io,
      );
      expect(code).toBe(0);
      const report = JSON.parse(stdout());
      expect(report.summary).toMatchObject({ answers: 2, scored: 2, claims: 3, coverage: 1 });
      expect(report.summary.mean_score).toBeCloseTo((1 - 5 / 7 + 1) / 2, 12);
      expect(server.requests.length).toBe(9); // 3 decompositions + 3 claims × (verification + harm)
    } finally {
      await server.close();
    }
  });

  it('a server that answers schema-valid but arbitrary JSON shows no support: every "supported" verdict is unverified', async () => {
    // 10 input + 5 output tokens per reply, as the server reports them.
    const arbitrary = arbitraryReplies(7);
    const server = await new FakeOpenAiServer({
      replies: (request, i) => ({
        ...(arbitrary(request, i) as { text: string }),
        usage: { input: 10, output: 5 },
      }),
    }).start();
    type Claim = { verdict: string; v: 0 | 1 | null; w: number | null; span: unknown; nearest: unknown };
    type Row = { id: string; score: number | null; segments: { claims: Claim[] }[] };
    const grade = async (extra: string[], out: string) => {
      const dir = workspace(rows.map((r) => JSON.stringify(r)));
      const { io, stdout, stderr } = memoryIo({ cwd: dir, env: {} });
      const judge = `openai-compatible:${server.url}/v1#arbitrary`;
      const argv = ['--json', ...args.slice(0, 5), judge, '--out', out, '--p', '2', '--no-cache', ...extra];
      expect(await runCli(argv, io)).toBe(0);
      const [manifest, ...written] = readFileSync(join(dir, out), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      return { report: JSON.parse(stdout()), manifest, written: written as Row[], stderr: stderr() };
    };
    /** METHODS §3.4 by hand over the claims as written. */
    const byHand = (row: Row, p: number) => {
      const claims = row.segments.flatMap((s) => s.claims).filter((c) => c.v !== null && c.w !== null);
      const total = claims.reduce((a, c) => a + c.w! ** p, 0);
      return 1 - claims.reduce((a, c) => a + c.w! ** p * (1 - c.v!), 0) / total;
    };
    try {
      const requests = () => server.requests.length;
      const strict = await grade([], 'strict.jsonl');
      const claims = strict.written.flatMap((r) => r.segments.flatMap((s) => s.claims));
      const verdicts = claims.map((c) => c.verdict);
      expect(verdicts).not.toContain('supported');
      const unverified = claims.filter((c) => c.verdict === 'unverified');
      expect(unverified.length).toBeGreaterThan(0);
      for (const c of unverified) expect(c).toMatchObject({ v: 0, span: null });
      for (const row of strict.written) {
        expect(row.score).toBeCloseTo(byHand(row, 2), 12);
        expect(row.score).toBe(0); // nothing is shown to be supported
      }
      expect(strict.report.summary.evidence).toEqual([
        {
          judge: expect.stringMatching(/#arbitrary$/),
          claimed_support: unverified.length,
          located: 0,
          unverified: unverified.length,
        },
      ]);
      // The progress line counts the calls and the tokens the server reported for them.
      const calls = requests();
      expect(strict.stderr).toMatch(
        new RegExp(
          `faithfulness: 2/2 done, 0 failed, took \\d+s, ${calls} model calls, ${(calls * 15).toLocaleString('en-US')} tokens\\n`,
        ),
      );

      const trusted = await grade(['--trust-unlocated-evidence'], 'trusted.jsonl');
      const trustedClaims = trusted.written.flatMap((r) => r.segments.flatMap((s) => s.claims));
      for (const c of trustedClaims.filter((x) => x.verdict === 'unverified')) expect(c.v).toBe(1);
      for (const row of trusted.written) expect(row.score).toBeCloseTo(byHand(row, 2), 12);
      expect(trusted.report.summary.trust_unlocated_evidence).toBe(true);
      expect(strict.manifest.settings.trust_unlocated_evidence).toBe(false);
      expect(trusted.manifest.settings.trust_unlocated_evidence).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('--dry-run estimates calls, tokens and cost per model without calling one', async () => {
    const dir = workspace(rows.map((r) => JSON.stringify(r)));
    const { io, stdout } = memoryIo({ cwd: dir, env: {} });
    const code = await runCli(
      [
        '--json',
        'grade',
        'faithfulness',
        '--answers',
        'answers.jsonl',
        '--judge',
        'openai:gpt-4.1-mini',
        '--out',
        'o.jsonl',
        '--dry-run',
        '--repeats',
        '2',
      ],
      io,
    );
    expect(code).toBe(0);
    const estimate = JSON.parse(stdout());
    expect(estimate).toMatchObject({ answers: 2, segments: 3, estimated_claims: 3 });
    expect(estimate.calls.map((c: { role: string; calls: number }) => [c.role, c.calls])).toEqual([
      ['decomposer', 3],
      ['verifier', 6],
      ['harm', 6],
    ]);
    expect(estimate.calls[0].costUsd).toBeGreaterThan(0);
    expect(existsSync(join(dir, 'o.jsonl'))).toBe(false);
  });

  it('leaves the ResearchQA grade command its own mandatory options', async () => {
    const { io, stderr } = memoryIo();
    const code = await runCli(['grade', '--run', 'r.jsonl', '--out', 'o.jsonl'], io);
    expect(code).toBe(2);
    expect(stderr()).toMatch(/required option '--dataset <file>' not specified/);
  });

  it('is listed by the real CLI', async () => {
    const { io, stdout } = memoryIo();
    await runCli(['grade', '--help'], io);
    expect(stdout()).toMatch(/faithfulness/);
  });
});
