import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CLUSTER_SUMMARY_SYSTEM,
  SUMMARIZE_SYSTEM,
  WRITE_QA_PAIRS_SYSTEM,
} from '../../generate/nuggets/prompts/index.js';
import { FakeOpenAiServer } from '../../testing/index.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

async function cli(cwd: string, argv: string[]) {
  const { io, stdout, stderr } = memoryIo({ cwd });
  const code = await runCli(argv, io);
  return { code, out: stdout(), err: stderr() };
}

/** Facts per document; the fake model turns each into a QA pair. */
const FACTS: Record<string, [string, string][]> = {
  a1: [
    ['Drug A lowered blood pressure by 10 mmHg', 'By how much did drug A lower blood pressure?'],
    ['120 patients', 'How many patients were in the trial of drug A?'],
  ],
  a2: [['dizziness', 'What side effect did drug A cause?']],
  a3: [['12 weeks', 'How long did the trial of drug A last?']],
  b1: [['the zoo of Vienna', 'Where do the crows live?']],
  b2: [['the breeding season', 'When are the crow flocks smallest?']],
  b3: [['colour rings', 'How were the crows identified?']],
};

describe("DoGMaTiQ's ablation on a user's data: banks compared by the system rankings they induce", () => {
  it('generates a bank, derives the baselines, judges three runs with each and ranks them', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'nuggets-ablation-'));
    const requests = [
      {
        request_id: 'A',
        title: 'Drug A',
        background: 'I am a physician.',
        problem_statement: 'What did the trial of drug A find?',
      },
      {
        request_id: 'B',
        title: 'Crows',
        background: 'I study birds.',
        problem_statement: 'Where do the crows of Vienna live and how big are their flocks?',
      },
    ];
    writeFileSync(join(cwd, 'requests.jsonl'), requests.map((r) => JSON.stringify(r)).join('\n'));
    const docs = Object.entries(FACTS).map(([id, facts]) => ({
      request_id: id.startsWith('a') ? 'A' : 'B',
      doc_id: id,
      text: facts.map(([answer, question]) => `${question.replace('?', '')}: ${answer}.`).join(' '),
    }));
    writeFileSync(join(cwd, 'docs.jsonl'), docs.map((d) => JSON.stringify(d)).join('\n'));
    const server = await new FakeOpenAiServer({
      replies: (r) => {
        const [system, user] = [r.messages[0]!.content, r.messages[1]!.content];
        if (system === SUMMARIZE_SYSTEM)
          return { text: `SUMMARY ${/<document>\n(.*)\n<\/document>/s.exec(user)![1]}` };
        if (system === WRITE_QA_PAIRS_SYSTEM) {
          const id = Object.keys(FACTS).find((k) => FACTS[k]!.some(([a]) => user.includes(a)))!;
          return { text: JSON.stringify(FACTS[id]!.map(([answer, question]) => ({ answer, question }))) };
        }
        if (system === CLUSTER_SUMMARY_SYSTEM)
          return { text: `In short: ${/"([^"]+)"/.exec(user.split('<answers>')[1]!)![1]}` };
        return { text: 'YES' };
      },
    }).start();
    try {
      const model = `openai-compatible:${server.url}/v1#m`;
      const gen = await cli(cwd, [
        'nuggets',
        'generate',
        '--requests',
        'requests.jsonl',
        '--docs',
        'docs.jsonl',
        '--model',
        model,
        '--out',
        'full',
      ]);
      expect(gen.code, gen.err).toBe(0);
      expect(
        (
          await cli(cwd, [
            'nuggets',
            'select',
            '--bank',
            'full',
            '--method',
            'most-common',
            '--top-k',
            '2',
            '--out',
            'common',
          ])
        ).code,
      ).toBe(0);
      expect(
        (
          await cli(cwd, [
            'nuggets',
            'select',
            '--bank',
            'full',
            '--method',
            'sample',
            '--top-k',
            '2',
            '--out',
            'random',
          ])
        ).code,
      ).toBe(0);
      const gingerArgs = [
        'nuggets',
        'ginger',
        '--bank',
        'full',
        '--model',
        model,
        '--top-k',
        '3',
        '--out',
        'ginger',
      ];
      const plan = await cli(cwd, [...gingerArgs, '--dry-run']);
      const ginger = await cli(cwd, gingerArgs);
      expect(ginger.code, ginger.err).toBe(0);
      // The dry run counts the summaries the run wrote; after it, none is left to write.
      const written = readdirSync(join(cwd, 'ginger'))
        .filter((f) => f.startsWith('nuggets_'))
        .flatMap((f) => Object.keys(JSON.parse(readFileSync(join(cwd, 'ginger', f), 'utf8')).nugget_bank));
      expect(written.length).toBeGreaterThan(0);
      expect(plan.out).toMatch(new RegExp(`^dry run: ${written.length} summaries to write`));
      expect((await cli(cwd, [...gingerArgs, '--dry-run'])).out).toMatch(/^dry run: 0 summaries to write/);
    } finally {
      await server.close();
    }
    // Three systems: one states every fact, one half of them, one none.
    const runs = [
      [
        'all',
        [
          'Drug A lowered blood pressure by 10 mmHg in 120 patients over 12 weeks; dizziness was its side effect.',
        ],
        [
          'The crows live in the zoo of Vienna, identified by colour rings; flocks are smallest in the breeding season.',
        ],
      ],
      ['half', ['Drug A lowered blood pressure by 10 mmHg.'], ['The crows live in the zoo of Vienna.']],
      ['none', ['Drug A is a drug.'], ['Crows are birds.']],
    ] as const;
    const lines = runs.flatMap(([runId, a, b]) =>
      [
        ['A', a, 'a1'],
        ['B', b, 'b1'],
      ].map(([topic, texts, doc]) =>
        JSON.stringify({
          metadata: { team_id: 't', run_id: runId, topic_id: topic },
          responses: (texts as readonly string[]).map((text) => ({ text, citations: [doc] })),
          references: [doc],
        }),
      ),
    );
    writeFileSync(join(cwd, 'runs.jsonl'), lines.join('\n'));
    for (const bank of ['full', 'common', 'random', 'ginger']) {
      const judged = await cli(cwd, [
        'reports',
        'judge',
        '--runs',
        'runs.jsonl',
        '--nuggets',
        bank,
        '--requests',
        'requests.jsonl',
        '--docs',
        'docs.jsonl',
        '--judge',
        'lexical',
        '--out',
        `${bank}.judgments.jsonl`,
      ]);
      expect(judged.code, `${bank}: ${judged.err}`).toBe(0);
      const scored = await cli(cwd, [
        'reports',
        'score',
        '--judgments',
        `${bank}.judgments.jsonl`,
        '--nuggets',
        bank,
        '--out',
        `${bank}.tsv`,
      ]);
      expect(scored.code, `${bank}: ${scored.err}`).toBe(0);
    }
    const coverage = (bank: string, run: string) =>
      Number(
        readFileSync(join(cwd, `${bank}.tsv`), 'utf8')
          .split('\n')
          .map((l) => l.split('\t'))
          .find((c) => c[0] === run && c[1] === 'all' && c[2] === 'nugget_coverage_macro')![3],
      );
    // The full bank orders the systems as their content does.
    expect(coverage('full', 'all')).toBeGreaterThan(coverage('full', 'half'));
    expect(coverage('full', 'half')).toBeGreaterThan(coverage('full', 'none'));
    // Each baseline bank against the reference bank: do they rank the three systems alike?
    const rho: Record<string, number> = {};
    for (const bank of ['common', 'random', 'ginger']) {
      const ranked = await cli(cwd, [
        '--json',
        'meta-eval',
        'ranking',
        '--scores',
        `${bank}.tsv`,
        '--reference',
        'full.tsv',
        '--iterations',
        '50',
        '--top-k',
        '2',
      ]);
      expect(ranked.code, ranked.err).toBe(0);
      const result = JSON.parse(ranked.out) as { systems: unknown[]; spearman: { value: number } };
      expect(result.systems).toHaveLength(3);
      rho[bank] = result.spearman.value;
    }
    // The most-common bank keeps the reference bank's order of the systems.
    expect(rho.common).toBeCloseTo(1, 12);
  });
});
