import { resolve } from 'node:path';
import { Option } from 'commander';
import { CitegeistError } from '../../core/index.js';
import { readTextFile } from '../../io/index.js';
import {
  formatTrecEval,
  isTrecEvalStopped,
  parsePrefs,
  parseQrelsJg,
  parseQrelsPrefs,
  parseZScores,
  type RelInfo,
  type TrecEvalResult,
  trecEval,
} from '../../retrieve/index.js';
import type { RegisterCommand } from '../context.js';
import { readQrels, readRun } from './input-files.js';
import { collect, numberOption, parseIntOption } from './option-parsers.js';

interface TrecEvalFlags {
  q: boolean;
  c: boolean;
  n: boolean;
  J: boolean;
  l?: number;
  M?: number;
  N?: number;
  R: string;
  T: string;
  Z?: string;
  measure: string[];
  docLevel: boolean;
  skipMissingTopics: boolean;
}

/** The judgements file in trec_eval's `-R` format (formats.c, te_rel_info_format). */
function readRelInfo(cwd: string, file: string, format: string): RelInfo {
  const text = () => readTextFile(resolve(cwd, file), 'judgements file');
  switch (format) {
    case 'qrels':
      return { format: 'qrels', qrels: readQrels(cwd, file) };
    case 'qrels_jg':
      return { format: 'qrels_jg', qrelsJg: parseQrelsJg(text(), file) };
    case 'prefs':
      return { format: 'prefs', prefs: parsePrefs(text(), file) };
    case 'qrels_prefs':
      return { format: 'prefs', prefs: parseQrelsPrefs(text(), file) };
    default:
      throw new CitegeistError(
        'BAD_OPTION',
        `-R ${format} is not a judgements format trec_eval reads.`,
        'Use -R qrels (default), qrels_jg, prefs or qrels_prefs.',
      );
  }
}

export const registerTrecEval: RegisterCommand = (program, ctx) => {
  program
    .command('trec-eval')
    .description(
      "score a TREC run against judgements like trec_eval 10.0 (output byte-identical on trec_eval's own test suite: 15 of 15 commands; see docs/fidelity.md)",
    )
    .argument('<rel_info>', 'judgements: qrels "topic iter docid grade" (or the -R format)')
    .argument('<run>', 'run file: "topic Q0 docid rank score tag" per line')
    .option('-q', 'also print per-topic values', false)
    .addOption(
      new Option(
        '-m, --measure <measure>',
        'measure[.params] or set, repeatable: official, all_trec, set, all_prefs, prefs, qrels_jg, or any trec_eval 10.0 measure such as map, P.5,10, ndcg_cut.10, ndcg.1=3,2=9, relstring.20, Rprec_mult.0.5,1',
      )
        .argParser(collect)
        .default([], 'official'),
    )
    .option(
      '-c',
      'average over every judged topic; a topic missing from the run is scored as trec_eval scores it',
      false,
    )
    .option('-l <level>', 'minimum grade that counts as relevant (default 1)', parseIntOption('-l'))
    .option('-n', 'no summary lines', false)
    .option(
      '-M <n>',
      'evaluate only the top n documents per topic',
      numberOption('-M', { integer: true, min: 0 }),
    )
    .option('-J', 'drop unjudged documents from each ranking first (rarely what you want)', false)
    .option(
      '-N <n>',
      'documents in the collection (for the utility measure)',
      numberOption('-N', { integer: true, min: 0 }),
    )
    .option('-R <format>', 'judgements format: qrels, qrels_jg, prefs, qrels_prefs', 'qrels')
    .option('-T <format>', 'run format: trec_results (the only one trec_eval has)', 'trec_results')
    .option('-Z <file>', 'print z-scores against "topic measure mean stddev" lines of this file')
    .option(
      '--skip-missing-topics',
      'pre-10.0: without -c, score only the topics in both files (trec_eval 9.0.x; trec_eval 10.0 stops at a judged topic missing from the run)',
      false,
    )
    .option('--doc-level', 'roll passage ids "<docId>#<n>" up to documents (max score) before scoring', false)
    .action((relFile: string, runFile: string, flags: TrecEvalFlags) => {
      if (flags.T !== 'trec_results') {
        throw new CitegeistError(
          'BAD_OPTION',
          `-T ${flags.T} is not a run format trec_eval reads.`,
          'Use -T trec_results (the default).',
        );
      }
      const rel = readRelInfo(ctx.io.cwd, relFile, flags.R);
      const run = readRun(ctx.io.cwd, runFile, flags.docLevel);
      const zscores = flags.Z
        ? parseZScores(readTextFile(resolve(ctx.io.cwd, flags.Z), 'z-score file'), flags.Z)
        : undefined;
      const print = (result: TrecEvalResult, stopped?: { code: string; problem: string }) => {
        if (ctx.globals().json)
          ctx.io.out(`${JSON.stringify(stopped ? { ...result, stopped } : result, null, 2)}\n`);
        else ctx.io.out(formatTrecEval(result, { perQuery: flags.q, summary: !flags.n }));
      };
      let result: TrecEvalResult;
      try {
        result = trecEval(rel, run, {
          measures: flags.measure.length ? flags.measure : ['official'],
          complete: flags.c,
          judgedOnly: flags.J,
          ...(flags.l !== undefined ? { relevanceLevel: flags.l } : {}),
          ...(flags.M !== undefined ? { maxDocsPerTopic: flags.M } : {}),
          ...(flags.N !== undefined ? { numDocsInColl: flags.N } : {}),
          ...(zscores ? { zscores } : {}),
          ...(flags.skipMissingTopics ? { missingTopics: 'skip' as const } : {}),
        });
      } catch (error) {
        // trec_eval has printed the lines before the error when it stops: print the same, then fail.
        if (isTrecEvalStopped(error)) print(error.partial, { code: error.code, problem: error.problem });
        throw error;
      }
      print(result);
      for (const line of missingTopicNotes(result)) ctx.io.err(`trec-eval: ${line}\n`);
    });
};

/** Judged topics left out under --skip-missing-topics, for stderr (trec_eval 9.0.x said nothing). */
function missingTopicNotes(result: TrecEvalResult): string[] {
  const ids = result.unscoredTopics;
  if (ids.length === 0) return [];
  const list = `${ids.slice(0, 5).join(', ')}${ids.length > 5 ? `, … (${ids.length})` : ''}`;
  return [
    `${ids.length} judged topic(s) have no results in the run and were not scored (--skip-missing-topics): ${list}. The means are over the ${result.numQueries} topic(s) in both files; use -c to score missing topics as 0.`,
  ];
}
