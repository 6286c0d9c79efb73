import type { RegisterCommand } from '../context.js';
import { registerAnswer } from './answer.js';
import { registerIndex } from './build-index.js';
import { registerCollect } from './collect.js';
import { registerCompare } from './compare.js';
import { registerDataset } from './dataset.js';
import { registerDemo } from './demo.js';
import { registerErrors } from './errors.js';
import { registerExport } from './export.js';
import { registerGenerate } from './generate.js';
import { registerGradeFaithfulness } from './grade-faithfulness.js';
import { registerGrade } from './grade-researchqa.js';
import { registerIngest } from './ingest.js';
import { registerLeaderboard } from './leaderboard.js';
import { registerList } from './list.js';
import { registerLlm } from './llm.js';
import { registerMetaEvalFaithfulness } from './meta-eval-faithfulness.js';
import { registerMetaEvalRanking } from './meta-eval-ranking.js';
import { registerNuggetsConvert, registerNuggetsStats } from './nuggets-convert.js';
import { registerNuggetsGenerate } from './nuggets-generate.js';
import { registerNuggetsGinger } from './nuggets-ginger.js';
import { registerNuggetsScoreQuality } from './nuggets-quality.js';
import { registerNuggetsSelect, registerNuggetsTrainSelector } from './nuggets-select.js';
import { registerPack } from './pack.js';
import { registerQaEval } from './qa-eval.js';
import { registerQaGrid } from './qa-grid.js';
import { registerQasperEval } from './qasper-eval.js';
import { registerQueue } from './queue.js';
import { registerQuote } from './quote.js';
import { registerRecipes } from './recipes.js';
import { registerReport } from './report.js';
import { registerReportsCompare } from './reports-compare.js';
import { registerReportsGenerate } from './reports-generate.js';
import { registerReportsJudge } from './reports-judge.js';
import { registerReportsScore } from './reports-score.js';
import { registerReportsValidate } from './reports-validate.js';
import { registerRetrieve } from './retrieve.js';
import { registerSearch } from './search.js';
import { registerServe } from './serve.js';
import { registerShow } from './show.js';
import { registerTrecEval } from './trec-eval.js';
import { registerWorker } from './worker.js';

/**
 * Every CLI command, in the order `citegeist --help` lists them (roughly the pipeline's order).
 * `registerGradeFaithfulness` adds a subcommand to the `grade` command, so it must come after
 * `registerGrade`.
 */
export const COMMANDS: RegisterCommand[] = [
  registerDemo,
  registerCollect,
  registerIngest,
  registerList,
  registerShow,
  registerQuote,
  registerIndex,
  registerSearch,
  registerRetrieve,
  registerExport,
  registerRecipes,
  registerDataset,
  registerGenerate,
  registerAnswer,
  registerGrade,
  registerGradeFaithfulness,
  registerMetaEvalFaithfulness,
  registerNuggetsGenerate,
  registerNuggetsScoreQuality,
  registerNuggetsSelect,
  registerNuggetsTrainSelector,
  registerNuggetsGinger,
  registerNuggetsConvert,
  registerNuggetsStats,
  registerReportsValidate,
  registerReportsGenerate,
  registerReportsJudge,
  registerReportsScore,
  registerReportsCompare,
  registerMetaEvalRanking,
  registerLeaderboard,
  registerReport,
  registerServe,
  registerPack,
  registerQaEval,
  registerQaGrid,
  registerQasperEval,
  registerTrecEval,
  registerCompare,
  registerLlm,
  registerWorker,
  registerQueue,
  registerErrors,
];
