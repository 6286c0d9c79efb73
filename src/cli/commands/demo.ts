import { copyFileSync, mkdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { VERSION } from '../../version.js';
import type { RegisterCommand } from '../context.js';
import { runReportsDemo } from '../setup/demo-report-runs.js';
import { certifyReportAndPack, demoAssets, demoStep, demoSummary } from '../setup/demo-steps.js';

interface DemoOptions {
  out: string;
  model?: string;
}

export const registerDemo: RegisterCommand = (program, ctx) => {
  program
    .command('demo')
    .description(
      'run the whole pipeline on the bundled sample papers: ingest → index → answer → grade → compare → report (no keys, no network)',
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
      const [run, grades, leadRun, leadGrades] = ['run', 'grades', 'run-lead', 'grades-lead'].map((f) =>
        join(out, `${f}.jsonl`),
      ) as [string, string, string, string];
      const json = ctx.globals().json ? ['--json'] : [];
      const failures: string[] = [];
      const step = (title: string, argv: string[], produces?: string) =>
        demoStep(ctx, failures, title, argv, produces);

      ctx.io.out(`citegeist ${VERSION} demo: 3 open-licence papers, 12 questions, answered by "${model}".\n`);
      const [c, d, r, g, lr, lg] = [corpus, dataset, run, grades, leadRun, leadGrades].map(rel) as string[];
      const [cs, ds] = [c!, d!];
      await step(
        'Ingest the papers (PDF and JATS) into a corpus',
        ['ingest', join(assets, 'papers'), '--corpus', cs, ...json],
        corpus,
      );
      await step(
        'Index the corpus for retrieval (BM25 + the embedded default embedder)',
        ['index', '--corpus', cs],
        join(out, 'index'),
      );
      await step('Search it', ['search', 'hard negatives citation triplet loss', '--corpus', cs, '-k', '3']);
      const answer = (m: string, to: string) => [
        'answer',
        '--dataset',
        ds,
        '--corpus',
        cs,
        '--model',
        m,
        '--out',
        to,
      ];
      const grade = (from: string, to: string) => [
        'grade',
        '--dataset',
        ds,
        '--run',
        from,
        '--corpus',
        cs,
        '--out',
        to,
      ];
      await step(`Answer the questions with ${model} under the citation contract`, answer(model, r!), run);
      await step('Grade the answers (ResearchQA citation metrics)', grade(r!, g!), grades);
      // A second offline system, so the demo can show a paired comparison on the same questions.
      await step(
        'Answer again with the lead baseline (the paper’s first sentences, whatever the question)',
        answer('lead', lr!),
        leadRun,
      );
      await step('Grade the lead baseline', grade(lr!, lg!), leadGrades);
      await step('Compare the two on the same questions (paired randomization test, Holm)', [
        'compare',
        g!,
        lg!,
      ]);

      const reportFiles = await runReportsDemo(
        ctx,
        (_c, title, argv, produces) => step(title, argv, produces),
        {
          assets,
          out,
          corpus,
        },
      );
      const pack = await certifyReportAndPack(ctx, step, failures, {
        assets,
        out,
        model,
        grades: [g!, lg!],
        runs: [r!, lr!],
        dataset: ds,
        corpus: cs,
      });
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      if (failures.length > 0) ctx.setExitCode(1);
      const finished = failures.length > 0 ? `Finished with failures (${failures.join('; ')})` : 'Done';
      ctx.io.out(
        demoSummary({
          finished,
          seconds,
          out: rel(out),
          corpus: cs,
          dataset: ds,
          run: r!,
          pack: rel(pack),
          reportFiles,
        }),
      );
    });
};
