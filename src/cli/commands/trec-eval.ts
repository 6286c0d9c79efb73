import { Option } from 'commander';
import { formatTrecEval, trecEval } from '../../retrieve/index.js';
import type { RegisterCommand } from '../context.js';
import { readQrels, readRun } from './input-files.js';
import { collect, numberOption, parseIntOption } from './option-parsers.js';

interface TrecEvalFlags {
  q: boolean;
  c: boolean;
  l?: number;
  M?: number;
  measure: string[];
  docLevel: boolean;
}

export const registerTrecEval: RegisterCommand = (program, ctx) => {
  program
    .command('trec-eval')
    .description('score a TREC run against qrels; output identical to trec_eval 10.0')
    .argument('<qrels>', 'qrels file: "topic iter docid grade" per line')
    .argument('<run>', 'run file: "topic Q0 docid rank score tag" per line')
    .option('-q', 'also print per-topic values', false)
    .option('-c', 'average over all qrels topics (missing topics score 0)', false)
    .option('-l <level>', 'minimum grade that counts as relevant (default: 1)', parseIntOption('-l'))
    .option(
      '-M <n>',
      'evaluate only the top n documents per topic',
      numberOption('-M', { integer: true, min: 0 }),
    )
    .addOption(
      new Option(
        '-m, --measure <measure>',
        'measure[.cutoffs], repeatable (map, P.5,10, ndcg_cut.10, recall, Rprec, bpref, success, ndcg, recip_rank, num_*; sets: official, all_trec)',
      )
        .argParser(collect)
        .default([], 'official'),
    )
    .option('--doc-level', 'roll passage ids "<docId>#<n>" up to documents (max score) before scoring', false)
    .action((qrelsFile: string, runFile: string, flags: TrecEvalFlags) => {
      const qrels = readQrels(ctx.io.cwd, qrelsFile);
      const run = readRun(ctx.io.cwd, runFile, flags.docLevel);
      const result = trecEval(qrels, run, {
        measures: flags.measure.length ? flags.measure : ['official'],
        complete: flags.c,
        ...(flags.l !== undefined ? { relevanceLevel: flags.l } : {}),
        ...(flags.M !== undefined ? { maxDocsPerTopic: flags.M } : {}),
      });
      if (ctx.globals().json) ctx.io.out(`${JSON.stringify(result, null, 2)}\n`);
      else ctx.io.out(formatTrecEval(result, { perQuery: flags.q }));
    });
};
