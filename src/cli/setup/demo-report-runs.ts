import { cpSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { CliContext } from '../context.js';

/**
 * Runs one demo step as a user would type it (the demo's own `step`): a step that fails in part is
 * noted and the demo goes on; one that leaves `produces` unwritten stops it.
 */
export type DemoStep = (
  ctx: CliContext,
  title: string,
  argv: string[],
  produces?: string,
) => Promise<unknown>;

/** The folder of the demo folder that holds the bundled nugget banks. */
export const REPORTS_NUGGETS = 'reports-nuggets';

/**
 * The demo's report-evaluation step (ARGUE, METHODS §5 step 6), offline: the extractive baseline
 * writes a cited report per bundled request over the demo corpus, the lexical judge judges it
 * against the hand-written nugget banks in `assets/demo/reports/`, and the ARGUE table is printed.
 * Returns the lines the demo's closing summary lists.
 */
export async function runReportsDemo(
  ctx: CliContext,
  step: DemoStep,
  paths: { assets: string; out: string; corpus: string },
): Promise<string[]> {
  const rel = (p: string) => relative(ctx.io.cwd, p) || '.';
  // The bundled requests and nugget banks are copied beside the outputs, so the report and the
  // scores' provenance name files in the demo folder, not inside the installed package.
  const reports = join(paths.assets, 'reports');
  cpSync(join(reports, 'requests.jsonl'), join(paths.out, 'reports-requests.jsonl'));
  cpSync(join(reports, 'nuggets'), join(paths.out, REPORTS_NUGGETS), { recursive: true });
  const [requests, nuggets] = [
    rel(join(paths.out, 'reports-requests.jsonl')),
    rel(join(paths.out, REPORTS_NUGGETS)),
  ];
  const [run, judgments, scores] = ['reports-run.jsonl', 'reports-judgments.jsonl', 'reports-scores.tsv'].map(
    (f) => rel(join(paths.out, f)),
  ) as [string, string, string];
  const corpus = rel(paths.corpus);
  await step(
    ctx,
    'Write a cited report per request over the papers (extractive baseline, BM25)',
    ['reports', 'generate', '--requests', requests, '--corpus', corpus, '--mode', 'bm25', '--out', run],
    join(paths.out, 'reports-run.jsonl'),
  );
  await step(
    ctx,
    'Judge the reports the ARGUE way (lexical judge: offline, deterministic)',
    [
      'reports',
      'judge',
      '--runs',
      run,
      '--nuggets',
      nuggets,
      '--requests',
      requests,
      '--docs',
      corpus,
      '--judge',
      'lexical',
      '--out',
      judgments,
    ],
    join(paths.out, 'reports-judgments.jsonl'),
  );
  await step(ctx, "Score them with Auto-ARGUE's metrics against the hand-written nuggets", [
    'reports',
    'score',
    '--judgments',
    judgments,
    '--nuggets',
    nuggets,
    '--requests',
    requests,
    '--out',
    scores,
  ]);
  return [
    ['reports-requests.jsonl', 'the bundled report requests (copied)'],
    [`${REPORTS_NUGGETS}/`, 'hand-written nugget banks for them (copied)'],
    ['reports-run.jsonl', 'cited reports, one per bundled request (RAGTIME run format)'],
    ['reports-judgments.jsonl', 'ARGUE judgments per sentence (the layout ARGUE-viz opens)'],
    ['reports-scores.tsv', 'Auto-ARGUE scores (+ .meta.json: how they were made)'],
  ].map(([file, what]) => `${file!.padEnd(22)} ${what}`);
}
