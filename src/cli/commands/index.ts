import type { RegisterCommand } from '../context.js';

/** A command module, loaded only when its command runs: `names`: the commands it registers under. */
export interface CommandEntry {
  /** The top-level commands the module adds (or adds a subcommand to). */
  names: readonly string[];
  load(): Promise<RegisterCommand>;
}

/**
 * Every CLI command, in the order `citegeist --help` lists them (roughly the pipeline's order).
 * Modules are imported when their command runs, so `citegeist <command>` loads that command's code
 * alone (`program.ts`). `registerGradeFaithfulness` adds a subcommand to the `grade` command, so it
 * must come after `registerGrade`.
 */
export const COMMANDS: readonly CommandEntry[] = [
  { names: ['demo'], load: async () => (await import('./demo.js')).registerDemo },
  { names: ['collect'], load: async () => (await import('./collect.js')).registerCollect },
  { names: ['ingest'], load: async () => (await import('./ingest.js')).registerIngest },
  { names: ['list'], load: async () => (await import('./list.js')).registerList },
  { names: ['show'], load: async () => (await import('./show.js')).registerShow },
  { names: ['quote'], load: async () => (await import('./quote.js')).registerQuote },
  { names: ['index'], load: async () => (await import('./build-index.js')).registerIndex },
  { names: ['search'], load: async () => (await import('./search.js')).registerSearch },
  { names: ['retrieve'], load: async () => (await import('./retrieve.js')).registerRetrieve },
  { names: ['export'], load: async () => (await import('./export.js')).registerExport },
  { names: ['recipes'], load: async () => (await import('./recipes.js')).registerRecipes },
  { names: ['dataset'], load: async () => (await import('./dataset.js')).registerDataset },
  { names: ['generate'], load: async () => (await import('./generate.js')).registerGenerate },
  { names: ['answer'], load: async () => (await import('./answer.js')).registerAnswer },
  { names: ['grade'], load: async () => (await import('./grade-researchqa.js')).registerGrade },
  { names: ['grade'], load: async () => (await import('./grade-faithfulness.js')).registerGradeFaithfulness },
  {
    names: ['meta-eval'],
    load: async () => (await import('./meta-eval-faithfulness.js')).registerMetaEvalFaithfulness,
  },
  { names: ['nuggets'], load: async () => (await import('./nuggets-generate.js')).registerNuggetsGenerate },
  {
    names: ['nuggets'],
    load: async () => (await import('./nuggets-quality.js')).registerNuggetsScoreQuality,
  },
  { names: ['nuggets'], load: async () => (await import('./nuggets-select.js')).registerNuggetsSelect },
  {
    names: ['nuggets'],
    load: async () => (await import('./nuggets-select.js')).registerNuggetsTrainSelector,
  },
  { names: ['nuggets'], load: async () => (await import('./nuggets-ginger.js')).registerNuggetsGinger },
  { names: ['nuggets'], load: async () => (await import('./nuggets-convert.js')).registerNuggetsConvert },
  { names: ['nuggets'], load: async () => (await import('./nuggets-convert.js')).registerNuggetsStats },
  {
    names: ['reports'],
    load: async () => (await import('./report-runs-validate.js')).registerReportsValidate,
  },
  {
    names: ['reports'],
    load: async () => (await import('./report-runs-generate.js')).registerReportsGenerate,
  },
  { names: ['reports'], load: async () => (await import('./report-runs-judge.js')).registerReportsJudge },
  { names: ['reports'], load: async () => (await import('./report-runs-score.js')).registerReportsScore },
  { names: ['reports'], load: async () => (await import('./report-runs-compare.js')).registerReportsCompare },
  {
    names: ['meta-eval'],
    load: async () => (await import('./meta-eval-ranking.js')).registerMetaEvalRanking,
  },
  { names: ['meta-eval'], load: async () => (await import('./meta-eval-judge.js')).registerMetaEvalJudge },
  { names: ['leaderboard'], load: async () => (await import('./leaderboard.js')).registerLeaderboard },
  { names: ['report'], load: async () => (await import('./report.js')).registerReport },
  { names: ['serve'], load: async () => (await import('./serve.js')).registerServe },
  { names: ['pack', 'replay'], load: async () => (await import('./pack.js')).registerPack },
  { names: ['qa-eval'], load: async () => (await import('./qa-eval.js')).registerQaEval },
  { names: ['qa-grid'], load: async () => (await import('./qa-grid.js')).registerQaGrid },
  { names: ['qasper-eval'], load: async () => (await import('./qasper-eval.js')).registerQasperEval },
  { names: ['trec-eval'], load: async () => (await import('./trec-eval.js')).registerTrecEval },
  { names: ['compare'], load: async () => (await import('./compare.js')).registerCompare },
  { names: ['llm'], load: async () => (await import('./llm.js')).registerLlm },
  { names: ['worker'], load: async () => (await import('./worker.js')).registerWorker },
  { names: ['queue'], load: async () => (await import('./queue.js')).registerQueue },
  { names: ['errors'], load: async () => (await import('./errors.js')).registerErrors },
];
