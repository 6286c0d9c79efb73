import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CitegeistError } from '../../core/index.js';
import { writeReport } from '../../report/index.js';
import type { CliContext } from '../context.js';
import { REPORTS_NUGGETS } from './demo-report-runs.js';

/** The bundled demo: three open-licence papers and twelve hand-written questions over them. */
export function demoAssets(): string {
  // src/cli/setup → repo root, and dist/cli/setup → package root: both three levels up.
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
  const assets = join(root, 'assets', 'demo');
  if (!existsSync(join(assets, 'dataset.jsonl'))) {
    throw new CitegeistError(
      'ASSETS_MISSING',
      `The bundled demo files are not in ${assets}.`,
      'Reinstall citegeist (the package ships assets/demo).',
    );
  }
  return assets;
}

/**
 * Runs one pipeline step as the user would type it. A step that failed in part (a paper that did
 * not ingest, a row whose answer failed) is noted and the demo goes on, so the report shows the
 * failure where it happened; the demo stops only when a step left nothing for the next one
 * (`produces` missing). Returns the step's exit code.
 */
export async function demoStep(
  ctx: CliContext,
  failures: string[],
  title: string,
  argv: string[],
  produces?: string,
): Promise<number> {
  ctx.io.out(
    `\n▶ ${title}\n  $ citegeist ${argv.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(' ')}\n`,
  );
  const code = await ctx.run(argv);
  if (code === 0) return 0;
  if (produces !== undefined && !existsSync(produces)) {
    throw new CitegeistError(
      'DEMO_STEP_FAILED',
      `The demo step "${title}" exited with code ${code} and wrote nothing for the next step.`,
      'Read the messages above; run the same command yourself with --debug for details.',
    );
  }
  failures.push(`"${title}" exited with code ${code}`);
  ctx.io.out(`  (this step reported failures, shown above; the demo goes on and the report shows them)\n`);
  return code;
}

/** The demo's closing summary: what each file is, and what to try next with a real model. */
export function demoSummary(o: {
  finished: string;
  seconds: string;
  out: string;
  corpus: string;
  dataset: string;
  run: string;
  pack: string;
  reportFiles: readonly string[];
}): string {
  return `
${o.finished} in ${o.seconds} s. Files in ${o.out}/:
  dataset.jsonl          the questions, with verbatim evidence groups
  corpus.sqlite          the ingested papers (citegeist list --corpus ${o.corpus})
  run.jsonl              answers, citations, latency, tokens, cost
  grades.jsonl           per-row metrics (rounded per row as the published grader does; null = not applicable)
  grades.summary.json    per model: n, mean, median, 95% bootstrap CI, failures
  run-lead.jsonl         the lead baseline's answers (the paper's first sentences, whatever the question)
  grades-lead.jsonl      its grades: \`citegeist compare\` pairs them with grades.jsonl question by question
  report.html            open it in a browser (no network needed): leaderboard, every answer with its
                         citations highlighted in the paper, gold evidence, nearest passage on a miss
${o.reportFiles.map((l) => `  ${l}`).join('\n')}
  judge-card.json        how the offline lexical judge agrees with people on 229 Check-COVID claims
                         (κ, α, confusion; a baseline card, not a certificate of the model judges)
  demo.cgpack            the study in one file: \`citegeist replay ${o.pack}\` re-derives every output offline

Next, with a real model (keys come from the environment, e.g. OPENAI_API_KEY):
  citegeist llm ping --model openai:gpt-4.1-mini
  citegeist demo --model openai:gpt-4.1-mini          # or ollama:qwen2.5:7b on a local Ollama
  citegeist grade --dataset ${o.dataset} --run ${o.run} --corpus ${o.corpus} --judge openai:gpt-4.1-mini --out grades-judged.jsonl
  citegeist meta-eval judge --set check-covid --data <human-labels folder> --judge openai:gpt-4.1-mini --limit 300 --out card.json
  citegeist generate questions --corpus ${o.corpus} --model openai:gpt-4.1-mini --out my-benchmark.jsonl
`;
}

/**
 * The demo's last steps: the judge card of the offline lexical judge, the HTML report of both
 * answerers, and the study packed into one file. Returns the pack's path.
 */
export async function certifyReportAndPack(
  ctx: CliContext,
  step: (title: string, argv: string[], produces?: string) => Promise<number>,
  failures: readonly string[],
  o: {
    assets: string;
    out: string;
    model: string;
    grades: string[];
    runs: string[];
    dataset: string;
    corpus: string;
  },
): Promise<string> {
  const rel = (p: string) => relative(ctx.io.cwd, p) || '.';
  const card = join(o.out, 'judge-card.json');
  await step(
    'Certify the offline lexical judge on people’s labels: a judge card on the Check-COVID test split (229 claims, MIT)',
    [
      ...['meta-eval', 'judge', '--set', 'check-covid', '--data', join(o.assets, 'human-labels')],
      ...['--judge', 'lexical', '--iterations', '2000'],
      ...['--judgments', rel(join(o.out, 'judge-card.judgments.jsonl')), '--out', rel(card)],
    ],
    card,
  );
  await writeReport(
    {
      grades: o.grades,
      runs: o.runs,
      judgments: [rel(join(o.out, 'reports-judgments.jsonl'))],
      nuggets: rel(join(o.out, REPORTS_NUGGETS)),
      dataset: o.dataset,
      corpus: o.corpus,
      out: rel(join(o.out, 'report.html')),
      title: 'citegeist demo',
      facts: [
        ['answered by', `${o.model} (and the lead baseline, to compare)`],
        ['dataset', 'bundled demo questions (lookup, comprehension, multi-hop, adversarial)'],
        ...(failures.length > 0 ? [['steps with failures', failures.join('; ')] as [string, string]] : []),
      ],
      paperText: 'full',
      seed: 0,
    },
    ctx.io.cwd,
  );
  // The study as one file: everything the report and the ARGUE scores were made from, checked
  // by replaying it once (docs/packs.md).
  const pack = join(o.out, 'demo.cgpack');
  const scores = join(o.out, 'reports-scores.tsv');
  const include = existsSync(scores) ? ['--include', rel(scores)] : [];
  await step(
    'Pack the study (inputs, outputs, how to re-derive each) into one file',
    ['pack', '--from', rel(join(o.out, 'report.html')), ...include, '--out', rel(pack)],
    pack,
  );
  return pack;
}
