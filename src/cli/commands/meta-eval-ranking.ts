import { resolve } from 'node:path';
import { CitegeistError, quoteValue } from '../../core/index.js';
import { metaEvaluateRanking, parseArgueTsv, type RankingMetaEval } from '../../grade/index.js';
import { readTextFile } from '../../io/index.js';
import { renderTable } from '../../text/index.js';
import type { RegisterCommand } from '../context.js';
import { metaEvalCommand } from './meta-eval-faithfulness.js';
import { collect, countOption, seedOption } from './option-parsers.js';

interface RankingFlags {
  scores: string[];
  reference: string;
  metric: string;
  referenceMetric?: string;
  topK: string;
  iterations: number;
  seed: number;
  judge?: string;
  system: string[];
}

const f = (x: number | null, d = 3) => (x === null ? 'n/a' : x.toFixed(d));

export function renderRanking(r: RankingMetaEval): string {
  const table = renderTable(
    [
      { header: 'system' },
      { header: r.metric, align: 'right' },
      { header: 'rank', align: 'right' },
      { header: `reference ${r.referenceMetric}`, align: 'right' },
      { header: 'rank', align: 'right' },
    ],
    [...r.systems]
      .sort((a, b) => a.referenceRank - b.referenceRank)
      .map((s) => [s.system, f(s.auto, 4), String(s.autoRank), f(s.reference, 4), String(s.referenceRank)]),
  );
  const lines = [
    `${r.systems.length} systems over ${r.topics} topics; CIs: ${r.iterations} bootstrap resamples of topics (seed ${r.seed})`,
    table,
    '',
    `Spearman ρ  ${f(r.spearman.value)}  [${f(r.spearman.lower)}, ${f(r.spearman.upper)}]`,
    `Kendall τ-b ${f(r.kendallTauB.value)}  [${f(r.kendallTauB.lower)}, ${f(r.kendallTauB.upper)}]`,
  ];
  for (const k of r.topK)
    lines.push(
      `top ${k.k}: ${Math.round(k.overlap * k.k)} of the reference's top ${k.k} also in the metric's top ${k.k}; τ-b among them ${f(k.kendallTauB)}`,
    );
  if (r.onlyAuto.length || r.onlyReference.length)
    lines.push(
      `left out: ${r.onlyAuto.length} systems only in the scores, ${r.onlyReference.length} only in the reference`,
    );
  for (const w of r.circularity) lines.push(`warning: ${w}`);
  return `${lines.join('\n')}\n`;
}

/** `citegeist meta-eval ranking`: does the automatic metric rank systems as the reference does? */
export const registerMetaEvalRanking: RegisterCommand = (program, ctx) => {
  metaEvalCommand(program)
    .command('ranking')
    .description(
      'rank systems by an ARGUE metric against a reference ranking: Spearman, Kendall τ-b (bootstrap CIs over topics), top-k stability, circularity',
    )
    .requiredOption(
      '--scores <tsv>',
      'scores TSVs of the systems (repeatable; several runs per file allowed)',
      collect,
      [],
    )
    .requiredOption('--reference <tsv>', 'reference scores TSV (e.g. from human nuggets or human judgments)')
    .option(
      '--metric <name>',
      'metric to rank by (an `all` row name, e.g. nugget_coverage_macro, f1_micro)',
      'nugget_coverage_macro',
    )
    .option('--reference-metric <name>', 'metric of the reference (default: --metric)')
    .option('--top-k <list>', 'top-k stability for these k', '3,5,10')
    .option('--iterations <n>', 'bootstrap resamples', countOption('--iterations'), 1000)
    .option('--seed <n>', 'bootstrap seed', seedOption('--seed'), 42)
    .option('--judge <model>', 'the judge behind --scores, for the circularity check')
    .option(
      '--system <run=model>',
      'the model behind a system (repeatable), for the circularity check',
      collect,
      [],
    )
    .action((flags: RankingFlags) => {
      const read = (file: string) =>
        parseArgueTsv(readTextFile(resolve(ctx.io.cwd, file), 'scores TSV'), file);
      const topK = flags.topK.split(',').map((k) => Number(k.trim()));
      if (topK.some((k) => !Number.isInteger(k) || k < 2))
        throw new CitegeistError(
          'BAD_OPTION',
          `--top-k ${quoteValue(flags.topK)} is not a list of whole numbers ≥ 2.`,
          'Pass e.g. --top-k 3,5,10.',
        );
      const systemModels = new Map(
        flags.system.map((s) => {
          const at = s.indexOf('=');
          if (at <= 0)
            throw new CitegeistError(
              'BAD_OPTION',
              `--system ${quoteValue(s)} is not run=model.`,
              'Pass e.g. --system my-run=openai:gpt-4.1-mini.',
            );
          return [s.slice(0, at), s.slice(at + 1)] as [string, string];
        }),
      );
      const result = metaEvaluateRanking(flags.scores.flatMap(read), read(flags.reference), {
        metric: flags.metric,
        ...(flags.referenceMetric ? { referenceMetric: flags.referenceMetric } : {}),
        topK,
        iterations: flags.iterations,
        seed: flags.seed,
        judge: flags.judge ?? null,
        systemModels,
      });
      if (ctx.globals().json) ctx.io.out(`${JSON.stringify(result, null, 2)}\n`);
      else ctx.io.out(renderRanking(result));
      if (result.circularity.length > 0)
        ctx.io.err(`${result.circularity.length} circularity warning(s): see above\n`);
    });
};
