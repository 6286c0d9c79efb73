import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type HumanSet, readHumanSet } from '../../grade/index.js';
import { FakeOpenAiServer } from '../../testing/index.js';
import { missingSharedData, sharedDataPath, skipWithoutSharedData } from '../../testing/shared-data.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

const missing = missingSharedData(['human-labels', 'README.md']);
const data = sharedDataPath('human-labels');

/** Text between <tag> and </tag> in a prompt (the delimiters citegeist's judges use). */
function tagged(text: string, tag: string): string {
  const m = new RegExp(`<${tag}[^>]*>\\n([\\s\\S]*?)\\n</${tag}>`).exec(text);
  return m?.[1] ?? '';
}

async function cli(argv: string[], cwd: string) {
  const { io, stdout, stderr } = memoryIo({ cwd, env: {} });
  const code = await runCli(argv, io);
  return { code, out: stdout(), err: stderr() };
}

describe(`meta-eval judge against the fake OpenAI-compatible server ${missing ?? ''}`, () => {
  beforeEach(skipWithoutSharedData(['human-labels', 'README.md']));
  let server: FakeOpenAiServer;
  let mode: 'perfect' | 'always-A' = 'perfect';
  const sets = new Map<string, HumanSet>();
  const claimLabel = new Map<string, { label: number; evidence: string }>();
  const answerUtility = new Map<string, number>();

  beforeAll(async () => {
    if (missing) return;
    const covid = readHumanSet('check-covid', data);
    const alce = readHumanSet('alce-utility', data);
    sets.set('check-covid', covid);
    for (const i of covid.items) {
      claimLabel.set(`${i.inputs.claim}\u0000${(i.inputs.evidence as string[]).join('\u0000')}`, {
        label: i.labels[0]!.value,
        evidence: (i.inputs.evidence as string[])[0]!,
      });
    }
    sets.set('alce-utility', alce);
    for (const i of alce.items)
      answerUtility.set(`${i.inputs.question}\u0000${i.inputs.answer}`, i.labels[0]!.value);
    server = await new FakeOpenAiServer({
      replies: (request) => {
        const system = request.messages[0]?.content ?? '';
        const user = request.messages.at(-1)?.content ?? '';
        if (system.startsWith('You check one claim')) {
          const evidence = [...user.matchAll(/<excerpt[^>]*>\n([\s\S]*?)\n<\/excerpt>/g)].map((m) => m[1]);
          const hit = claimLabel.get(`${tagged(user, 'claim')}\u0000${evidence.join('\u0000')}`)!;
          const verdict = ['supported', 'contradicted', 'unsupported'][hit.label]!;
          return {
            text: JSON.stringify({
              verdict,
              rationale: 'scripted',
              evidence_quote: hit.label === 0 ? hit.evidence : null,
            }),
          };
        }
        if (system.startsWith('You rate how useful')) {
          const score = answerUtility.get(`${tagged(user, 'question')}\u0000${tagged(user, 'answer')}`) ?? 3;
          return { text: JSON.stringify({ score, justification: 'scripted' }) };
        }
        if (system.startsWith('You compare two answers')) {
          if (mode === 'always-A') return { text: JSON.stringify({ better: 'A', rationale: 'first' }) };
          const a = tagged(user, 'answer_A').length;
          const b = tagged(user, 'answer_B').length;
          return {
            text: JSON.stringify({ better: a === b ? 'tie' : a > b ? 'A' : 'B', rationale: 'longer' }),
          };
        }
        // the anchored rubric judge: completeness by answer length, no evidence (factual accuracy is capped)
        const answer = tagged(
          user.replace('<<<ANSWER', '<answer>').replace('ANSWER>>>', '</answer>'),
          'answer',
        );
        const completeness = Math.min(5, 1 + Math.floor(answer.length / 400));
        return {
          text: JSON.stringify({
            factual_accuracy: 3,
            completeness,
            justification: 'scripted',
            evidence: [],
          }),
        };
      },
    }).start();
  });
  afterAll(async () => {
    await server?.close();
  });
  const judge = () => `openai-compatible:${server.url}/v1#judge-model`;
  const base = (set: string) => [
    'meta-eval',
    'judge',
    '--set',
    set,
    '--data',
    data,
    '--iterations',
    '200',
    '--no-cache',
  ];

  it('check-covid: the VETSCORE claim-support judge, scripted to agree, gets accuracy 1 and κ 1; the card carries its manifest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'card-'));
    const r = await cli(
      ['--json', ...base('check-covid'), '--judge', judge(), '--limit', '30', '--out', 'card.json'],
      dir,
    );
    expect(r.code).toBe(0);
    const card = JSON.parse(readFileSync(join(dir, 'card.json'), 'utf8'));
    expect(card.counts).toMatchObject({ judged: 30, failed: 0, pairs: 30 });
    expect(card.measures.accuracy.estimate).toBe(1);
    expect(card.measures.kappa.estimate).toBeCloseTo(1, 12);
    expect(card.manifest).toMatchObject({
      kind: 'judge-card',
      settings: { judge_kind: 'vetscore-claim-support', set: 'check-covid', limit: 30, seed: 0 },
    });
    expect(card.manifest.settings.prompt_version).toMatch(/^[0-9a-f]{12}$/);
    expect(card.manifest.inputs.set.sha256).toBe(sets.get('check-covid')!.sha256);
    // the stratified sample keeps the label shares: 505/504/495 of 1,504 → 10/10/10 of 30
    expect(card.per_category.map((p: { reference: number }) => p.reference)).toEqual([10, 10, 10]);
    expect(JSON.parse(r.out).measures.kappa.iterations).toBe(200);
  });

  it('grade faithfulness --judge-card: shown beside the score for the same verifier, refused for another (JUDGE_CARD_STALE)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'card-'));
    expect(
      (await cli([...base('check-covid'), '--judge', judge(), '--limit', '9', '--out', 'card.json'], dir))
        .code,
    ).toBe(0);
    writeFileSync(
      join(dir, 'answers.jsonl'),
      `${JSON.stringify({ id: 'a', question: 'Q', answer: 'Dogs are mammals [1].', sources: { '1': 'Dogs are mammals.' } })}\n`,
    );
    const grade = [
      'grade',
      'faithfulness',
      '--answers',
      'answers.jsonl',
      '--out',
      'f.jsonl',
      '--no-cache',
      '--judge-card',
      'card.json',
      '--judge',
    ];
    const ok = await cli(['--json', ...grade, judge()], dir);
    expect(JSON.parse(ok.out).judge_card.line).toMatch(
      /^VETSCORE verifier: judge card: openai-compatible:.* on check-covid \(9 items\): Cohen's κ 1\.000/,
    );
    const stale = await cli(
      [...grade, `openai-compatible:${server.url}/v1#another-model`, '--out', 'g.jsonl'],
      dir,
    );
    expect(stale.code).not.toBe(0);
    expect(stale.err).toMatch(/JUDGE_CARD_STALE/);
    const joint = await cli([...grade, judge(), '--joint', '--out', 'h.jsonl'], dir);
    expect(joint.err).toMatch(/prompt version "[0-9a-f]{12}", not "joint"/);
  });

  it('resumes: a second run judges nothing again and makes the same card', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'card-'));
    const argv = [
      '--json',
      ...base('check-covid'),
      '--judge',
      judge(),
      '--limit',
      '12',
      '--out',
      'card.json',
    ];
    expect((await cli(argv, dir)).code).toBe(0);
    const calls = server.requests.length;
    const again = await cli(argv, dir);
    expect(again.code).toBe(0);
    expect(server.requests.length).toBe(calls);
    expect(again.err).toMatch(/judged 0 items \(12 already in/);
  });

  it('--dry-run prints calls, tokens and cost and calls no model', async () => {
    const calls = server.requests.length;
    const r = await cli(
      [
        '--json',
        ...base('ragchecker'),
        '--judge',
        judge(),
        '--judge-kind',
        'pairwise',
        '--limit',
        '20',
        '--dry-run',
      ],
      tmpdir(),
    );
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.out);
    expect(plan).toMatchObject({ items: 20, calls: 40 });
    expect(plan.input_tokens).toBeGreaterThan(0);
    expect(server.requests.length).toBe(calls);
  });

  it('ragchecker, pairwise judge that always says "A": every pair flips with position, all labels are ties', async () => {
    mode = 'always-A';
    try {
      const r = await cli(
        [
          '--json',
          ...base('ragchecker'),
          '--judge',
          judge(),
          '--judge-kind',
          'pairwise',
          '--limit',
          '20',
          '--judgments',
          join(mkdtempSync(join(tmpdir(), 'j-')), 'j.jsonl'),
        ],
        tmpdir(),
      );
      expect(r.code).toBe(0);
      const card = JSON.parse(r.out);
      expect(card.probes.position_swap).toMatchObject({ pairs: 20, flipped: 20 });
      expect(card.probes.position_swap.rate.estimate).toBe(1);
      expect(card.reference).toBe('each');
      expect(card.counts.pairs).toBe(40);
      expect(card.ceiling).toMatchObject({ available: true, pairs: 280, annotators: 2 });
    } finally {
      mode = 'perfect';
    }
  });

  it('ragchecker, rubric judge on both answers (completeness): score differences rescaled to [−2, 2], correlations but no κ', async () => {
    const r = await cli(
      [
        '--json',
        ...base('ragchecker'),
        '--dimension',
        'completeness',
        '--judge',
        judge(),
        '--limit',
        '16',
        '--judgments',
        join(mkdtempSync(join(tmpdir(), 'j-')), 'j.jsonl'),
      ],
      tmpdir(),
    );
    expect(r.code).toBe(0);
    const card = JSON.parse(r.out);
    expect(card.judge).toMatchObject({ kind: 'rubric', continuous: true });
    expect(card.measures.kappa.estimate).toBeNull();
    expect(typeof card.measures.spearman.estimate).toBe('number');
    // annotator 1 vs 2 on completeness: κ 0.46260, quadratic κ 0.71838 (NumPy, the formula of
    // src/stats/__fixtures__/make-agreement-reference.py on human_labeled_data.json)
    expect(card.ceiling.measures.kappa.estimate).toBeCloseTo(0.4625996058606803, 12);
    expect(card.ceiling.measures.kappa_quadratic.estimate).toBeCloseTo(0.7183756029251596, 12);
  });

  it('crowdrag25, pairwise judge (longer answer wins) on a 10-pair sample: gold reference, position flips counted', async () => {
    const r = await cli(
      [
        '--json',
        ...base('crowdrag25'),
        '--judge',
        judge(),
        '--judge-kind',
        'pairwise',
        '--limit',
        '10',
        '--judgments',
        join(mkdtempSync(join(tmpdir(), 'j-')), 'j.jsonl'),
      ],
      tmpdir(),
    );
    expect(r.code).toBe(0);
    const card = JSON.parse(r.out);
    expect(card.reference).toBe('gold');
    expect(card.counts.pairs).toBe(10);
    expect(card.probes.position_swap).toMatchObject({ pairs: 10, flipped: 0 });
    expect(card.ceiling.annotators).toBe(420);
  });

  it('alce-utility, 1–5 utility rubric scripted to the human rating: the card’s accuracy is the share of matches in the judgments file', async () => {
    const judgments = join(mkdtempSync(join(tmpdir(), 'j-')), 'j.jsonl');
    const r = await cli(
      ['--json', ...base('alce-utility'), '--judge', judge(), '--limit', '25', '--judgments', judgments],
      tmpdir(),
    );
    expect(r.code).toBe(0);
    const card = JSON.parse(r.out);
    expect(card.judge.kind).toBe('utility-rubric');
    const human = new Map(sets.get('alce-utility')!.items.map((i) => [i.id, i.labels[0]!.value]));
    const rows = readFileSync(judgments, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => JSON.parse(l) as { id: string; label: number });
    expect(rows).toHaveLength(25);
    const same = rows.filter((row) => row.label === human.get(row.id)).length;
    // answers that repeat with different ratings (e.g. empty ones) cannot all be scripted right
    expect(same).toBeGreaterThanOrEqual(20);
    expect(card.measures.accuracy.estimate).toBeCloseTo(same / 25, 12);
    expect(card.ceiling.available).toBe(false);
  });
});

describe(`meta-eval judge --probe-verbosity ${missing ?? ''}`, () => {
  beforeEach(skipWithoutSharedData(['human-labels', 'README.md']));
  it('judges each answer again padded; the card reports the mean score shift, computed from the two judgments files', async () => {
    // a judge that gives 5 to any answer carrying the padding sentence and 2 otherwise
    const server = await new FakeOpenAiServer({
      replies: (request) => ({
        text: JSON.stringify({
          score: (request.messages.at(-1)?.content ?? '').includes('To put it in context') ? 5 : 2,
          justification: 'x',
        }),
      }),
    }).start();
    try {
      const dir = mkdtempSync(join(tmpdir(), 'pad-'));
      const judge = `openai-compatible:${server.url}/v1#judge-model`;
      const argv = [
        '--json',
        'meta-eval',
        'judge',
        '--set',
        'alce-utility',
        '--data',
        data,
        '--judge',
        judge,
        '--limit',
        '10',
        '--iterations',
        '200',
        '--no-cache',
        '--probe-verbosity',
        '--judgments',
        'j.jsonl',
      ];
      const r = await cli(argv, dir);
      expect(r.code).toBe(0);
      const card = JSON.parse(r.out);
      expect(card.probes.verbosity).toMatchObject({ scores: 10, mean_original: 2, mean_padded: 5 });
      expect(card.probes.verbosity.shift.estimate).toBe(3);
      expect(card.manifest.settings.verbosity_probe).toBe(true);
      expect(readFileSync(join(dir, 'j.verbosity.jsonl'), 'utf8').split('\n')[0]).toMatch(
        /verbosity-padding/,
      );
      expect(server.requests.length).toBe(20);
      const refused = await cli([...argv.slice(0, 7), '--judge-kind', 'pairwise', ...argv.slice(7)], dir);
      expect(refused.err).toMatch(/--probe-verbosity measures how padding moves a pointwise score/);
    } finally {
      await server.close();
    }
  });
});

describe(`meta-eval judge --labels: any id → label file ${missing ?? ''}`, () => {
  beforeEach(skipWithoutSharedData(['human-labels', 'README.md']));
  it('a CSV of labels makes a card; the text card shows judge and ceiling side by side', async () => {
    const set = readHumanSet('ragchecker', data);
    const dir = mkdtempSync(join(tmpdir(), 'labels-'));
    // "annotator 1 as the judge": the card's judge row then compares one person with both
    writeFileSync(
      join(dir, 'l.csv'),
      `id,label\n${set.items.map((i) => `${i.id},${i.labels[0]!.value}`).join('\n')}\n`,
    );
    const r = await cli(
      [
        'meta-eval',
        'judge',
        '--set',
        'ragchecker',
        '--data',
        data,
        '--labels',
        'l.csv',
        '--iterations',
        '200',
      ],
      dir,
    );
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/judge vs people\s+people vs people \(ceiling\)/);
    expect(r.out).toMatch(/Cohen's κ/);
    // the same labels as an OpenAI-family judge: the self-preference probe covers the pairs with
    // exactly one GPT-4 answer (family from the system name, e.g. bm25_gpt_4)
    const j = await cli(
      [
        '--json',
        'meta-eval',
        'judge',
        '--set',
        'ragchecker',
        '--data',
        data,
        '--labels',
        'l.csv',
        '--iterations',
        '200',
        '--judge-family',
        'openai',
      ],
      dir,
    );
    const own = set.items.filter(
      (i) => (i.inputs.family_1 === 'openai') !== (i.inputs.family_2 === 'openai'),
    );
    expect(own.length).toBeGreaterThan(0);
    expect(JSON.parse(j.out).probes.self_preference).toMatchObject({ family: 'openai', pairs: own.length });
  });

  it('ids the set does not have are refused with the count matched and examples', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'labels-'));
    writeFileSync(
      join(dir, 'l.jsonl'),
      ['{"id":"0","label":1}', '{"id":"x-1","label":1}', '{"id":"x-2","label":0}'].join('\n'),
    );
    const r = await cli(
      ['meta-eval', 'judge', '--set', 'ragchecker', '--data', data, '--labels', 'l.jsonl'],
      dir,
    );
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/HUMAN_LABELS_ID_MISMATCH/);
    expect(r.err).toMatch(/1 of 3 ids match.*"x-1", "x-2"/);
  });

  it('a label off the scale is refused with its line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'labels-'));
    writeFileSync(
      join(dir, 'l.jsonl'),
      [
        '{"id":"60b83923f9b9e03ea4d8e6be_1","label":"SUPPORT"}',
        '{"id":"60b83923f9b9e03ea4d8e6be_1","label":"MAYBE"}',
      ].join('\n'),
    );
    const r = await cli(
      ['meta-eval', 'judge', '--set', 'check-covid', '--data', data, '--labels', 'l.jsonl'],
      dir,
    );
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/HUMAN_LABEL_OUT_OF_SCALE/);
    expect(r.err).toMatch(
      /l\.jsonl line 2: label "MAYBE" is not on the nominal scale \(0=SUPPORT, 1=REFUTE, 2=NOTENOUGHINFO\)/,
    );
  });
});
