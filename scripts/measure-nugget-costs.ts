/**
 * Measures what `nuggets generate` and `nuggets score-quality` cost per request on the bundled demo
 * (three papers, three requests; every paper is a document of every request), against a fake
 * OpenAI-compatible server whose replies have realistic lengths (a 1,200-character summary, four
 * QA pairs per document). Tokens are the server's count (characters / 4); USD at the built-in
 * price of openai:gpt-4.1-mini. Also prints the dry-run estimate for the same run.
 * Run: `npx tsx scripts/measure-nugget-costs.ts` (figures go to docs/nuggets.md).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { memoryIo } from '../src/cli/io.js';
import { runCli } from '../src/cli/program.js';
import {
  CLUSTER_SUMMARY_SYSTEM,
  GENERAL_QUALITIES_SYSTEM,
  GET_CANONICAL_QUESTION_SYSTEM,
  IDENTIFY_PARAPHRASE_SYSTEM,
  PERSONALIZATION_SYSTEM,
  SUMMARIZE_SYSTEM,
  VITALITY_SYSTEM,
  WRITE_QA_PAIRS_SYSTEM,
} from '../src/generate/index.js';
import { BUILTIN_PRICES } from '../src/llm/index.js';
import { FakeOpenAiServer } from '../src/testing/index.js';

const assets = resolve(import.meta.dirname, '..', 'assets', 'demo');
const STEPS: [string, string][] = [
  [SUMMARIZE_SYSTEM, 'summary'],
  [WRITE_QA_PAIRS_SYSTEM, 'QA pairs'],
  [IDENTIFY_PARAPHRASE_SYSTEM, 'paraphrase check'],
  [GET_CANONICAL_QUESTION_SYSTEM, 'canonical question'],
  [VITALITY_SYSTEM, 'quality: vitality'],
  [PERSONALIZATION_SYSTEM, 'quality: personalisation'],
  [GENERAL_QUALITIES_SYSTEM, 'quality: 10 qualities'],
  [CLUSTER_SUMMARY_SYSTEM, 'GINGER-style summary'],
];

function reply(system: string, user: string): string {
  if (system === SUMMARIZE_SYSTEM) {
    const body = user.slice(user.indexOf('>') + 1).replace(/\s+/g, ' ');
    return body.slice(0, 1200);
  }
  if (system === WRITE_QA_PAIRS_SYSTEM) {
    const summary = user.slice(user.indexOf('<summary>') + 9);
    const sentences = summary
      .split(/(?<=\.)\s+/)
      .filter((s) => s.split(' ').length > 6)
      .slice(0, 4);
    return JSON.stringify(
      sentences.map((s) => {
        const w = s.split(' ');
        return {
          answer: w.slice(-4).join(' ').replace(/\.$/, ''),
          question: `What does the paper report about ${w.slice(0, 6).join(' ')}?`,
        };
      }),
    );
  }
  if (system === IDENTIFY_PARAPHRASE_SYSTEM)
    return '{"explanation": "They ask for the same fact about the same paper.", "paraphrase": "YES"}';
  if (system === GET_CANONICAL_QUESTION_SYSTEM)
    return '{"explanation": "It is the clearest of the questions.", "index": 1}';
  if (system.startsWith('You check the answers')) return '[{"1": "YES", "2": "YES"}, "OR"]';
  if (system.startsWith('You check an answer')) return 'YES';
  if (system === VITALITY_SYSTEM)
    return '{"explanation": "The report needs this fact.", "vitality": "VITAL"}';
  if (system === PERSONALIZATION_SYSTEM)
    return '{"goal_match": 0.8, "background_match": 0.5, "role_match": 0, "communication_match": 0.8, "scope_match": 0.8, "overall": 4}';
  if (system === GENERAL_QUALITIES_SYSTEM)
    return '{"fluency": 5, "clarity": 5, "ambiguity": 2, "relevance": 4, "incompleteness": 2, "assumptiveness": 2, "multifaceted": 2, "knowledge_intensiveness": 4, "subjectiveness": 1, "reasoning_intensiveness": 2}';
  if (system === CLUSTER_SUMMARY_SYSTEM)
    return 'The paper reports that the measured quantity grew over the study period.';
  throw new Error(`unexpected prompt ${system.slice(0, 30)}`);
}

const cwd = mkdtempSync(join(tmpdir(), 'nugget-costs-'));
const run = async (argv: string[]) => {
  const { io, stdout, stderr } = memoryIo({ cwd });
  const code = await runCli(argv, io);
  if (code !== 0) throw new Error(`${argv.join(' ')} → ${code}\n${stderr()}`);
  return stdout();
};
const server = await new FakeOpenAiServer({
  replies: (r) => ({ text: reply(r.messages[0]!.content, r.messages[1]!.content) }),
}).start();
try {
  const model = `openai-compatible:${server.url}/v1#gpt-4.1-mini`;
  const requests = join(assets, 'reports', 'requests.jsonl');
  await run(['ingest', join(assets, 'papers'), '--corpus', 'corpus.sqlite']);
  const args = [
    'nuggets',
    'generate',
    '--requests',
    requests,
    '--corpus',
    'corpus.sqlite',
    '--model',
    model,
    '--out',
    'nuggets',
    '--no-cache',
  ];
  console.log((await run([...args, '--dry-run'])).trim());
  console.log((await run(args)).trim());
  await run([
    'nuggets',
    'score-quality',
    '--bank',
    'nuggets',
    '--model',
    model,
    '--out',
    'scored',
    '--no-cache',
  ]);
  await run(['nuggets', 'ginger', '--bank', 'nuggets', '--model', model, '--out', 'ginger', '--no-cache']);
  const price = BUILTIN_PRICES['openai:gpt-4.1-mini']!;
  const rows = new Map<string, { calls: number; input: number; output: number }>();
  for (const r of server.requests) {
    const system = r.messages[0]!.content;
    const step =
      STEPS.find(([s]) => s === system)?.[1] ??
      (system.startsWith('You check') ? 'answer validation' : 'other');
    const row = rows.get(step) ?? { calls: 0, input: 0, output: 0 };
    row.calls++;
    row.input += Math.ceil(r.messages.reduce((n, m) => n + m.content.length, 0) / 4);
    row.output += Math.ceil(reply(system, r.messages[1]!.content).length / 4);
    rows.set(step, row);
  }
  console.log('\n| step | calls | input tokens | output tokens | USD (gpt-4.1-mini) | per request |');
  console.log('|---|---:|---:|---:|---:|---:|');
  let total = 0;
  for (const [step, r] of rows) {
    const usd = (r.input * price.input + r.output * price.output) / 1e6;
    total += usd;
    console.log(
      `| ${step} | ${r.calls} | ${r.input} | ${r.output} | ${usd.toFixed(4)} | ${(usd / 3).toFixed(4)} |`,
    );
  }
  console.log(`| total | ${server.requests.length} | | | ${total.toFixed(4)} | ${(total / 3).toFixed(4)} |`);
} finally {
  await server.close();
}
