import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CitegeistError } from '../../core/index.js';
import { writeReport } from '../../report/index.js';
import { VERSION } from '../../version.js';
import type { CliContext, RegisterCommand } from '../context.js';
import { REPORTS_NUGGETS, runReportsDemo } from '../setup/demo-report-runs.js';

/** The bundled demo: three open-licence papers and twelve hand-written questions over them. */
function demoAssets(): string {
  // src/cli/commands → repo root, and dist/cli/commands → package root: both three levels up.
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

interface DemoOptions {
  out: string;
  model?: string;
}

/**
 * Runs one pipeline step as the user would type it. A step that failed in part (a paper that did
 * not ingest, a row whose answer failed) is noted and the demo goes on, so the report shows the
 * failure where it happened; the demo stops only when a step left nothing for the next one
 * (`produces` missing). Returns the step's exit code.
 */
async function step(
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

export const registerDemo: RegisterCommand = (program, ctx) => {
  program
    .command('demo')
    .description(
      'run the whole pipeline on the bundled sample papers: ingest → index → answer → grade → report (no keys, no network)',
    )
    .option('--out <dir>', 'output folder', 'demo-output')
    .option(
      '--model <model>',
      'answer with this model instead of the extractive baseline (default: $CITEGEIST_MODEL)',
    )
    .action(async (opts: DemoOptions) => {
      const started = performance.now();
      const assets = demoAssets();
      const out = resolve(ctx.io.cwd, opts.out);
      mkdirSync(out, { recursive: true });
      const rel = (p: string) => relative(ctx.io.cwd, p) || '.';
      const corpus = join(out, 'corpus.sqlite');
      const dataset = join(out, 'dataset.jsonl');
      copyFileSync(join(assets, 'dataset.jsonl'), dataset);
      const model = opts.model ?? ctx.io.env.CITEGEIST_MODEL ?? 'extractive';
      const run = join(out, 'run.jsonl');
      const grades = join(out, 'grades.jsonl');
      const json = ctx.globals().json ? ['--json'] : [];
      const failures: string[] = [];

      ctx.io.out(`citegeist ${VERSION} demo: 3 open-licence papers, 12 questions, answered by "${model}".\n`);
      const [c, d, r, g] = [corpus, dataset, run, grades].map(rel) as [string, string, string, string];
      await step(
        ctx,
        failures,
        'Ingest the papers (PDF and JATS) into a corpus',
        ['ingest', join(assets, 'papers'), '--corpus', c, ...json],
        corpus,
      );
      await step(
        ctx,
        failures,
        'Index the corpus for retrieval (BM25 + the embedded default embedder)',
        ['index', '--corpus', c],
        join(out, 'index'),
      );
      await step(ctx, failures, 'Search it', [
        'search',
        'hard negatives citation triplet loss',
        '--corpus',
        c,
        '-k',
        '3',
      ]);
      await step(
        ctx,
        failures,
        `Answer the questions with ${model} under the citation contract`,
        ['answer', '--dataset', d, '--corpus', c, '--model', model, '--out', r],
        run,
      );
      await step(
        ctx,
        failures,
        'Grade the answers (ResearchQA citation metrics)',
        ['grade', '--dataset', d, '--run', r, '--corpus', c, '--out', g],
        grades,
      );

      const reportFiles = await runReportsDemo(
        ctx,
        (c, title, argv, produces) => step(c, failures, title, argv, produces),
        { assets, out, corpus },
      );

      await step(
        ctx,
        failures,
        'Certify the offline lexical judge on people’s labels: a judge card on the Check-COVID test split (229 claims, MIT)',
        [
          'meta-eval',
          'judge',
          '--set',
          'check-covid',
          '--data',
          join(assets, 'human-labels'),
          '--judge',
          'lexical',
          '--iterations',
          '2000',
          '--judgments',
          rel(join(out, 'judge-card.judgments.jsonl')),
          '--out',
          rel(join(out, 'judge-card.json')),
        ],
        join(out, 'judge-card.json'),
      );

      await writeReport(
        {
          grades: [g],
          runs: [r],
          judgments: [rel(join(out, 'reports-judgments.jsonl'))],
          nuggets: rel(join(out, REPORTS_NUGGETS)),
          dataset: d,
          corpus: c,
          out: rel(join(out, 'report.html')),
          title: 'citegeist demo',
          facts: [
            ['answered by', model],
            ['dataset', 'bundled demo questions (lookup, comprehension, multi-hop, adversarial)'],
            ...(failures.length > 0
              ? [['steps with failures', failures.join('; ')] as [string, string]]
              : []),
          ],
          paperText: 'full',
          seed: 0,
        },
        ctx.io.cwd,
      );
      // The study as one file: everything the report and the ARGUE scores were made from, checked
      // by replaying it once (docs/packs.md).
      const pack = join(out, 'demo.cgpack');
      const scores = join(out, 'reports-scores.tsv');
      await step(
        ctx,
        failures,
        'Pack the study (inputs, outputs, how to re-derive each) into one file',
        [
          'pack',
          '--from',
          rel(join(out, 'report.html')),
          ...(existsSync(scores) ? ['--include', rel(scores)] : []),
          '--out',
          rel(pack),
        ],
        pack,
      );
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      if (failures.length > 0) ctx.setExitCode(1);
      const finished = failures.length > 0 ? `Finished with failures (${failures.join('; ')})` : 'Done';
      ctx.io.out(`
${finished} in ${seconds} s. Files in ${rel(out)}/:
  dataset.jsonl          the questions, with verbatim evidence groups
  corpus.sqlite          the ingested papers (citegeist list --corpus ${rel(corpus)})
  run.jsonl              answers, citations, latency, tokens, cost
  grades.jsonl           per-row metrics (rounded per row as the published grader does; null = not applicable)
  grades.summary.json    per model: n, mean, median, 95% bootstrap CI, failures
  report.html            open it in a browser (no network needed): leaderboard, every answer with its
                         citations highlighted in the paper, gold evidence, nearest passage on a miss
${reportFiles.map((l) => `  ${l}`).join('\n')}
  judge-card.json        how the offline lexical judge agrees with people on 229 Check-COVID claims
                         (κ, α, confusion; a baseline card, not a certificate of the model judges)
  demo.cgpack            the study in one file: \`citegeist replay ${rel(pack)}\` re-derives every output offline

Next, with a real model (keys come from the environment, e.g. OPENAI_API_KEY):
  citegeist llm ping --model openai:gpt-4.1-mini
  citegeist demo --model openai:gpt-4.1-mini          # or ollama:qwen2.5:7b on a local Ollama
  citegeist grade --dataset ${rel(dataset)} --run ${rel(run)} --corpus ${rel(corpus)} --judge openai:gpt-4.1-mini --out grades-judged.jsonl
  citegeist meta-eval judge --set check-covid --data <human-labels folder> --judge openai:gpt-4.1-mini --limit 300 --out card.json
  citegeist generate questions --corpus ${rel(corpus)} --model openai:gpt-4.1-mini --out my-benchmark.jsonl
`);
    });
};
