import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readHumanSet, rubricPromptVersion } from '../../grade/index.js';
import { modelId, parseModelString } from '../../llm/index.js';
import { FakeOpenAiServer } from '../../testing/index.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

// The bundled Check-COVID slice: a judge card is made from a labels file on it (no shared data).
const demoLabels = join(import.meta.dirname, '..', '..', '..', 'assets', 'demo', 'human-labels');
const PAPER = 'We collected 1,204 survey responses from teachers in three districts.';

async function cli(argv: string[], cwd: string) {
  const { io, stdout, stderr } = memoryIo({ cwd, env: {} });
  const code = await runCli(argv, io);
  return { code, out: stdout(), err: stderr() };
}

describe('pack: a report made with --judge-card (fake OpenAI-compatible server on 127.0.0.1)', () => {
  let server: FakeOpenAiServer;
  beforeAll(async () => {
    server = await new FakeOpenAiServer({
      replies: () => ({
        text: JSON.stringify({
          factual_accuracy: 5,
          completeness: 4,
          justification: 'one claim',
          evidence: [{ claim: '1,204', expected_quote: '1,204' }],
        }),
      }),
    }).start();
  });
  afterAll(() => server.close());

  it("rebases the card's path (recorded relative to the report's folder) and replays the report identically", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'citegeist-pack-card-'));
    for (const d of ['papers', 'cards', 'out']) mkdirSync(join(dir, d));
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
      model: 'm',
      answer: '1,204 [^1]',
      citations: [{ key: '1', quote: PAPER }],
    };
    writeFileSync(join(dir, 'run.jsonl'), `${JSON.stringify(answer)}\n`);
    const spec = `openai-compatible:${server.url}/v1#gpt-4o`;
    const graded = await cli(
      [
        ...'grade --dataset dataset.jsonl --papers papers --run run.jsonl --out g.jsonl --judge'.split(' '),
        spec,
      ],
      dir,
    );
    expect(graded.code, graded.err).toBe(0);
    // A card for the judge, made from a labels file (the human labels themselves: κ = 1).
    const covid = readHumanSet('check-covid', demoLabels);
    const labels = covid.items.map((i) => JSON.stringify({ id: i.id, label: i.labels[0]!.value }));
    writeFileSync(join(dir, 'labels.jsonl'), `${labels.join('\n')}\n`);
    const card = await cli(
      [
        ...['meta-eval', 'judge', '--set', 'check-covid', '--data', demoLabels, '--labels', 'labels.jsonl'],
        ...['--judge-model', modelId(parseModelString(spec)), '--prompt-version', rubricPromptVersion()],
        ...['--iterations', '200', '--out', 'cards/card.json'],
      ],
      dir,
    );
    expect(card.code, card.err).toBe(0);
    // The report lives in out/: its recipe records the card as ../cards/card.json.
    const report = await cli(
      ['report', '--grades', 'g.jsonl', '--judge-card', 'cards/card.json', '--out', 'out/r.html'],
      dir,
    );
    expect(report.code, report.err).toBe(0);
    const html = readFileSync(join(dir, 'out', 'r.html'), 'utf8');
    expect(html).toMatch(/"judgeCard":\["\.\.\/cards\/card\.json"\]/);
    expect(html).toMatch(/Cohen&#39;s κ|Cohen's κ/);

    const pack = await cli(['pack', '--from', 'out/r.html', '--out', 'study.cgpack'], dir);
    expect(pack.code, pack.out + pack.err).toBe(0);
    const inspect = await cli(['--json', 'pack', 'inspect', 'study.cgpack'], dir);
    const step = JSON.parse(inspect.out).steps.find((s: { kind: string }) => s.kind === 'report');
    expect(step.options.judgeCard).toEqual(['cards/card.json']); // rebased to the study's folder

    const elsewhere = mkdtempSync(join(tmpdir(), 'citegeist-replay-card-'));
    const replay = await cli(['replay', join(dir, 'study.cgpack'), '--dir', 'r'], elsewhere);
    expect(replay.out).toMatch(/identical\s+out\/r\.html/);
    expect(replay.code, replay.out + replay.err).toBe(0);
  }, 60_000);
});
