import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arguePromptVersion, LexicalJudge, readHumanSet, rubricPromptVersion } from '../../grade/index.js';
import { modelId, parseModelString } from '../../llm/index.js';
import { FakeOpenAiServer } from '../../testing/index.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

// The bundled Check-COVID slice (229 claims): cards are made from label files on it, so these
// tests need no shared data; what they test is how cards travel with judged numbers.
const demoLabels = join(import.meta.dirname, '..', '..', '..', 'assets', 'demo', 'human-labels');
const covid = readHumanSet('check-covid', demoLabels);

async function cli(argv: string[], cwd: string) {
  const { io, stdout, stderr } = memoryIo({ cwd, env: {} });
  const code = await runCli(argv, io);
  return { code, out: stdout(), err: stderr() };
}

const PAPER = 'We collected 1,204 survey responses from teachers in three districts.';

/** A one-row dataset, its paper and a run answering it; report-run inputs for the ARGUE judge. */
function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'judge-card-use-'));
  mkdirSync(join(dir, 'papers'));
  writeFileSync(join(dir, 'papers', 'p1.md'), `# Paper\n\n## Methods\n\n${PAPER}\n`);
  const row = {
    row_id: 'p1_lookup',
    paper_id: 'p1',
    domain: 'education',
    question_type: 'lookup',
    question: 'How many responses?',
    expected_answer: '1,204',
    expected_references: [{ section_label: 'Methods', alternatives: [PAPER] }],
  };
  writeFileSync(join(dir, 'dataset.jsonl'), `${JSON.stringify(row)}\n`);
  const answer = {
    row_id: 'p1_lookup',
    model: 'openai:gpt-x',
    answer: '1,204 [^1]',
    citations: [{ key: '1', quote: PAPER }],
  };
  writeFileSync(join(dir, 'run.jsonl'), `${JSON.stringify(answer)}\n`);
  writeFileSync(
    join(dir, 'requests.jsonl'),
    `${JSON.stringify({ request_id: 'A', title: 'Survey', problem_statement: 'How many responses?', limit: 300 })}\n`,
  );
  writeFileSync(join(dir, 'docs.jsonl'), `${JSON.stringify({ doc_id: 'd1', text: PAPER })}\n`);
  writeFileSync(
    join(dir, 'nuggets.json'),
    JSON.stringify({
      query_id: 'A',
      title_query: 'A',
      format_version: 'v3',
      nugget_bank: {
        'How many?': {
          question: 'How many?',
          answers: { '1,204': { answer: '1,204' } },
          aggregator_type: 'OR',
          query_id: 'A',
        },
      },
    }),
  );
  writeFileSync(
    join(dir, 'report-run.jsonl'),
    `${JSON.stringify({
      metadata: { team_id: 't', run_id: 'r', topic_id: 'A' },
      responses: [{ text: 'We collected 1,204 survey responses.', citations: ['d1'] }],
      references: ['d1'],
    })}\n`,
  );
  return dir;
}

/**
 * A card for `model` / `promptVersion` from a labels file on the Check-COVID slice: the human
 * labels themselves (κ = 1) or NOTENOUGHINFO everywhere (κ = 0).
 */
async function makeCard(
  dir: string,
  out: string,
  model: string,
  promptVersion: string | null,
  good: boolean,
) {
  const labels = covid.items.map((i) => JSON.stringify({ id: i.id, label: good ? i.labels[0]!.value : 2 }));
  writeFileSync(join(dir, 'labels.jsonl'), `${labels.join('\n')}\n`);
  const argv = [
    'meta-eval',
    'judge',
    '--set',
    'check-covid',
    '--data',
    demoLabels,
    '--labels',
    'labels.jsonl',
  ];
  argv.push('--judge-model', model, ...(promptVersion ? ['--prompt-version', promptVersion] : []));
  const r = await cli([...argv, '--iterations', '200', '--out', out], dir);
  expect(r.code, r.err).toBe(0);
}

describe('judge cards beside judged numbers (fake OpenAI-compatible server on 127.0.0.1)', () => {
  let server: FakeOpenAiServer;
  let spec: string;
  let id: string;

  beforeAll(async () => {
    server = await new FakeOpenAiServer({
      replies: () => ({
        text: JSON.stringify({
          factual_accuracy: 5,
          completeness: 5,
          justification: 'one claim, consistent',
          evidence: [{ claim: '1,204', expected_quote: '1,204' }],
        }),
      }),
    }).start();
    spec = `openai-compatible:${server.url}/v1#gpt-4o`;
    id = modelId(parseModelString(spec));
  });
  afterAll(() => server.close());

  const grade = (out: string, ...more: string[]) => [
    ...'grade --dataset dataset.jsonl --papers papers --run run.jsonl --no-cache --out'.split(' '),
    out,
    '--judge',
    spec,
    ...more,
  ];

  it('grade --judge: says no card was found; --require-agreement refuses before any call (JUDGE_UNCERTIFIED)', async () => {
    const dir = workspace();
    const before = server.requests.length;
    const refused = await cli(grade('g.jsonl', '--require-agreement', '0.5'), dir);
    expect(refused.code).not.toBe(0);
    expect(refused.err).toMatch(/JUDGE_UNCERTIFIED/);
    expect(refused.err).toMatch(/no judge card certifies the rubric judge .* \(prompt [0-9a-f]{12}\)/);
    expect(refused.err).toMatch(/fix: .*meta-eval judge/);
    expect(server.requests.length).toBe(before);
    const ok = await cli(grade('g.jsonl'), dir);
    expect(ok.code, ok.err).toBe(0);
    expect(ok.out).toMatch(
      /rubric judge \(factual accuracy, completeness\): no judge card for .*#gpt-4o \(prompt [0-9a-f]{12}\) in \., judge-cards: its agreement with people is not measured/,
    );
  });

  it('grade --judge finds the card in ./judge-cards, prints it beside the scores, records it in the summary; a weak card given is refused under --require-agreement', async () => {
    const dir = workspace();
    mkdirSync(join(dir, 'judge-cards'));
    await makeCard(dir, 'judge-cards/rubric-card.json', id, rubricPromptVersion(), true);
    const ok = await cli(grade('g.jsonl', '--require-agreement', '0.9'), dir);
    expect(ok.code, ok.err).toBe(0);
    expect(ok.out).toMatch(
      /rubric judge \(factual accuracy, completeness\): judge card: .*#gpt-4o on check-covid \(229 items\): Cohen's κ 1\.000 .*; people vs people n\/a \(one label per item\) \(found: judge-cards\/rubric-card\.json\)/,
    );
    const summary = JSON.parse(readFileSync(join(dir, 'g.summary.json'), 'utf8'));
    expect(summary.judge_card).toMatchObject({
      card: 'judge-cards/rubric-card.json',
      found: true,
      measure: 'kappa',
    });
    expect(summary.judge_card.agreement.estimate).toBe(1);

    await makeCard(dir, 'weak.json', id, rubricPromptVersion(), false);
    const weak = await cli(grade('h.jsonl', '--judge-card', 'weak.json', '--require-agreement', '0.5'), dir);
    expect(weak.code).not.toBe(0);
    expect(weak.err).toMatch(
      /JUDGE_UNCERTIFIED.*weak\.json gives the rubric judge .* Cohen's κ 0\.000 with people on check-covid, below 0\.5/,
    );
  });

  it('a card of another prompt version is not found, and refused when given (JUDGE_CARD_STALE)', async () => {
    const dir = workspace();
    await makeCard(dir, 'old-card.json', id, '000000000000', true);
    const found = await cli(grade('g.jsonl'), dir);
    expect(found.out).toMatch(/no judge card for/);
    const given = await cli(grade('h.jsonl', '--judge-card', 'old-card.json'), dir);
    expect(given.code).not.toBe(0);
    expect(given.err).toMatch(/JUDGE_CARD_STALE.*prompt version "000000000000", not "[0-9a-f]{12}"/);
  });

  it('leaderboard and the HTML report show the judge’s agreement beside the judged metrics; under --require-agreement a weak judge’s metrics are shown, not ranked', async () => {
    const dir = workspace();
    expect((await cli(grade('g.jsonl'), dir)).code).toBe(0);
    await makeCard(dir, 'rubric-card.json', id, rubricPromptVersion(), true);
    const board = await cli(['leaderboard', 'g.jsonl', '--require-agreement', '0.8'], dir);
    expect(board.code, board.err).toBe(0);
    expect(board.out).toMatch(
      /rubric judge .*: judge card: .* Cohen's κ 1\.000 .*\(found: rubric-card\.json\)/,
    );
    const json = JSON.parse((await cli(['--json', 'leaderboard', 'g.jsonl'], dir)).out);
    expect(json.judge_cards).toHaveLength(1);
    expect(json.judge_cards[0]).toMatchObject({ judge: id, set: 'check-covid', measure: 'kappa' });

    const report = await cli(['report', '--grades', 'g.jsonl', '--out', 'r.html'], dir);
    expect(report.code, report.err).toBe(0);
    const html = readFileSync(join(dir, 'r.html'), 'utf8');
    const block = /<section id="judge-agreement"[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
    expect(block).toMatch(/Cohen&#39;s κ|Cohen's κ/);
    expect(block).toMatch(/1\.000 <span class="ci">\[1\.000, 1\.000\]<\/span>/);
    expect(block).toMatch(/n\/a \(one label per item\)/);
    // the leaderboard comes first, the judge's agreement right after it
    expect(html.indexOf('id="leaderboard"')).toBeLessThan(html.indexOf('id="judge-agreement"'));

    await makeCard(dir, 'weak-card.json', id, rubricPromptVersion(), false);
    const weak = await cli(
      ['leaderboard', 'g.jsonl', '--judge-card', 'weak-card.json', '--require-agreement', '0.5'],
      dir,
    );
    // Numbers already made are shown, not refused: the weak judge's metrics are printed, not ranked.
    expect(weak.code, weak.err).toBe(0);
    expect(weak.out).toMatch(
      /UNCERTIFIED: factual_accuracy, completeness printed, not ranked \(left out of the comparison\): --require-agreement 0\.5: weak-card\.json gives/,
    );
    const weakJson = JSON.parse(
      (
        await cli(
          [
            '--json',
            'leaderboard',
            'g.jsonl',
            '--judge-card',
            'weak-card.json',
            '--require-agreement',
            '0.5',
          ],
          dir,
        )
      ).out,
    );
    expect(weakJson.unranked_metrics).toEqual(['factual_accuracy', 'completeness']);
    expect(weakJson.judge_cards[0].uncertified).toMatch(/below 0\.5/);
    const weakReport = await cli(
      [
        ...['report', '--grades', 'g.jsonl', '--judge-card', 'weak-card.json'],
        ...['--require-agreement', '0.5', '--out', 'weak.html'],
      ],
      dir,
    );
    expect(weakReport.code, weakReport.err).toBe(0);
    expect(readFileSync(join(dir, 'weak.html'), 'utf8')).toMatch(
      /<strong>Uncertified:<\/strong> factual_accuracy, completeness shown, not ranked/,
    );
  });

  it('reports judge (ARGUE): the card of the lexical judge is found beside the output; an LLM judge with no card is refused before any call', async () => {
    const dir = workspace();
    const args = [
      ...'reports judge --runs report-run.jsonl --nuggets nuggets.json --requests requests.jsonl --docs docs.jsonl'.split(
        ' ',
      ),
      '--out',
    ];
    await makeCard(dir, 'argue-card.json', new LexicalJudge().id, null, true);
    const lexical = await cli([...args, 'j.jsonl', '--judge', 'lexical', '--require-agreement', '0.9'], dir);
    expect(lexical.code, lexical.err).toBe(0);
    expect(lexical.out).toMatch(
      /ARGUE judge \(attestation, nuggets\): judge card: lexical\(.*\) on check-covid .*\(found: argue-card\.json\)/,
    );
    const before = server.requests.length;
    const llm = await cli([...args, 'k.jsonl', '--judge', spec, '--require-agreement', '0.5'], dir);
    expect(llm.code).not.toBe(0);
    expect(llm.err).toMatch(
      new RegExp(`JUDGE_UNCERTIFIED.*ARGUE judge .* \\(prompt ${arguePromptVersion()}\\)`),
    );
    expect(server.requests.length).toBe(before);
  });

  it('--require-agreement outside [-1, 1] is a BAD_OPTION', async () => {
    const r = await cli(grade('g.jsonl', '--require-agreement', '1.5'), workspace());
    expect(r.err).toMatch(/BAD_OPTION.*--require-agreement must be a number at least -1 and at most 1/);
  });
});
