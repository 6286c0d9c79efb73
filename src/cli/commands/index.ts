import type { RegisterCommand } from '../context.js';

/** A command module, loaded only when its command runs: `name` is the command it registers under. */
export interface CommandEntry {
  /** The top-level command the module adds (or adds a subcommand to). */
  name: string;
  load(): Promise<RegisterCommand>;
}

/**
 * Every CLI command, in the order `citegeist --help` lists them (roughly the pipeline's order).
 * Modules are imported when their command runs, so `citegeist <command>` loads that command's code
 * alone (`program.ts`). `registerGradeFaithfulness` adds a subcommand to the `grade` command, so it
 * must come after `registerGrade`.
 */
export const COMMANDS: readonly CommandEntry[] = [
  { name: 'demo', load: async () => (await import('./demo.js')).registerDemo },
  { name: 'collect', load: async () => (await import('./collect.js')).registerCollect },
  { name: 'ingest', load: async () => (await import('./ingest.js')).registerIngest },
  { name: 'list', load: async () => (await import('./list.js')).registerList },
  { name: 'show', load: async () => (await import('./show.js')).registerShow },
  { name: 'quote', load: async () => (await import('./quote.js')).registerQuote },
  { name: 'index', load: async () => (await import('./build-index.js')).registerIndex },
  { name: 'search', load: async () => (await import('./search.js')).registerSearch },
  { name: 'retrieve', load: async () => (await import('./retrieve.js')).registerRetrieve },
  { name: 'recipes', load: async () => (await import('./recipes.js')).registerRecipes },
  { name: 'dataset', load: async () => (await import('./dataset.js')).registerDataset },
  { name: 'generate', load: async () => (await import('./generate.js')).registerGenerate },
  { name: 'answer', load: async () => (await import('./answer.js')).registerAnswer },
  { name: 'grade', load: async () => (await import('./grade-researchqa.js')).registerGrade },
  { name: 'grade', load: async () => (await import('./grade-faithfulness.js')).registerGradeFaithfulness },
  {
    name: 'meta-eval',
    load: async () => (await import('./meta-eval-faithfulness.js')).registerMetaEvalFaithfulness,
  },
  { name: 'nuggets', load: async () => (await import('./nuggets-generate.js')).registerNuggetsGenerate },
  { name: 'nuggets', load: async () => (await import('./nuggets-quality.js')).registerNuggetsScoreQuality },
  { name: 'nuggets', load: async () => (await import('./nuggets-select.js')).registerNuggetsSelect },
  { name: 'nuggets', load: async () => (await import('./nuggets-select.js')).registerNuggetsTrainSelector },
  { name: 'nuggets', load: async () => (await import('./nuggets-ginger.js')).registerNuggetsGinger },
  { name: 'nuggets', load: async () => (await import('./nuggets-convert.js')).registerNuggetsConvert },
  { name: 'nuggets', load: async () => (await import('./nuggets-convert.js')).registerNuggetsStats },
  { name: 'reports', load: async () => (await import('./report-runs-validate.js')).registerReportsValidate },
  { name: 'reports', load: async () => (await import('./report-runs-generate.js')).registerReportsGenerate },
  { name: 'reports', load: async () => (await import('./report-runs-judge.js')).registerReportsJudge },
  { name: 'reports', load: async () => (await import('./report-runs-score.js')).registerReportsScore },
  { name: 'reports', load: async () => (await import('./report-runs-compare.js')).registerReportsCompare },
  { name: 'meta-eval', load: async () => (await import('./meta-eval-ranking.js')).registerMetaEvalRanking },
  { name: 'leaderboard', load: async () => (await import('./leaderboard.js')).registerLeaderboard },
  { name: 'report', load: async () => (await import('./report.js')).registerReport },
  { name: 'serve', load: async () => (await import('./serve.js')).registerServe },
  { name: 'qa-eval', load: async () => (await import('./qa-eval.js')).registerQaEval },
  { name: 'qa-grid', load: async () => (await import('./qa-grid.js')).registerQaGrid },
  { name: 'qasper-eval', load: async () => (await import('./qasper-eval.js')).registerQasperEval },
  { name: 'trec-eval', load: async () => (await import('./trec-eval.js')).registerTrecEval },
  { name: 'compare', load: async () => (await import('./compare.js')).registerCompare },
  { name: 'llm', load: async () => (await import('./llm.js')).registerLlm },
  { name: 'worker', load: async () => (await import('./worker.js')).registerWorker },
  { name: 'queue', load: async () => (await import('./queue.js')).registerQueue },
  { name: 'errors', load: async () => (await import('./errors.js')).registerErrors },
];
