/**
 * citegeist: the library's entry points, by pipeline stage, and the types they take. Each name
 * here is kept stable; everything else of each stage is in `citegeist/internal` (it follows the
 * code), and the test doubles are in `citegeist/testing`. docs/library.md runs the whole pipeline
 * through these names alone.
 */

// Answer: answerers under the citation contract, the resumable run over a dataset, report writing.
export {
  type Answerer,
  answerManifest,
  answerOpened,
  ExtractiveAnswerer,
  ExtractiveReportWriter,
  generateReportRun,
  type HarnessOptions,
  type HarnessResult,
  LlmAnswerer,
  LlmReportWriter,
  type OpenAnsweringOptions,
  openAnswering,
  openPaperRetrieval,
  openReportRun,
  PaperContext,
  type ReportRunSettings,
  type RunTarget,
  reportRunManifest,
  runAnswers,
  writeReportRun,
} from './answer/index.js';
// Errors and run records: every failure a caller can catch, and how every output names its run.
export {
  CitegeistError,
  createManifest,
  type DatasetRow,
  type Document,
  type ErrorCode,
  type InputRef,
  isCitegeistError,
  type ManifestSpec,
  papersInput,
  type RunManifest,
  type RunRow,
  type Verdict,
} from './core/index.js';
// Formats and files: datasets, TREC runs and qrels; reading an input with its hash.
export {
  formatRun,
  parseQrels,
  parseReportRun,
  parseRequests,
  parseRun,
  readDataset,
  readDatasetStrict,
  readNuggetBanks,
} from './formats/index.js';
// Datasets: reading, checking and generating question sets; DoGMaTiQ nugget banks.
export {
  checkDataset,
  importQasper,
  NuggetPipeline,
} from './generate/index.js';
// Grade: ResearchQA grading, VETSCORE faithfulness, ARGUE judging and scoring of reports.
export {
  AnchoredRubricJudge,
  corpusDocuments,
  DEFAULT_HARM_EXPONENT,
  type FaithfulnessInput,
  type FaithfulnessSettings,
  finishGradesFile,
  type GradeRow,
  type GradeRunOptions,
  type GradingSettings,
  gradeAnswer as gradeFaithfulness,
  gradeRunToFile,
  gradesManifest,
  gradesTarget,
  type JudgmentsSettings,
  judgeIntoFile,
  judgeReports,
  LexicalJudge,
  LlmReportJudge,
  loadHarmRubric,
  type OpenGradingOptions,
  openGrading,
  openJudgments,
  prepareJudging,
  readFaithfulnessInputs,
  reportJudgmentsManifest,
  scoreInputs,
  scoreJudgedReports,
  summarizeFaithfulness,
} from './grade/index.js';
// Ingest: papers (PDF, JATS, TEI, Markdown, QASPER, S2ORC) into a corpus, and opening one.
export { readDocumentFile } from './ingest/index.js';
export { sha256OfFile } from './io/index.js';
// Models: LLM providers and embedders from a model string (`openai:gpt-4.1-mini`, `lsa:256`, …).
export {
  type CreateProviderOptions,
  createEmbedder,
  createProvider,
  type Embedder,
  type LlmProvider,
  type ProviderEnv,
} from './llm/index.js';
// Scale-out: model calls on queue workers through Redis (docs/scale-out.md).
export {
  parseRedisUrl,
  QueueCoordinator,
  QueuedProvider,
  QueueWorker,
  type QueueWorkerOptions,
  readQueueStatus,
} from './queue/index.js';
// Report: the self-contained HTML report, and the text tables.
export {
  buildReportData,
  buildReportFromFiles,
  type ReportInput,
  type ReportOptions,
  renderLeaderboard,
  renderReportPage,
  reportAssets,
  writeReport,
} from './report/index.js';
// Index, search and retrieve: the corpus's BM25 and dense indexes, and the retrievers over them.
export {
  compareRuns,
  formatTrecEval,
  type IndexCorpusOptions,
  type IndexCorpusResult,
  indexCorpus,
  indexDirFor,
  type OpenedIndex,
  type OpenRetrieverOptions,
  openRetriever,
  RETRIEVAL_MODES,
  type RetrievalMode,
  type Retriever,
  type ScoredPassage,
  type TrecEvalOptions,
  trecEval,
} from './retrieve/index.js';
// Serve: the report rebuilt when its inputs change, on 127.0.0.1.
export { type ServeOptions, startServer } from './server/index.js';
// Statistics: correlations, intervals and paired tests, as the comparisons report them.
export {
  bootstrapCI,
  bootstrapPairedCI,
  createRandom,
  fitPartialCreditModel,
  kendallTauB,
  kendallTauC,
  krippendorffAlpha,
  mean,
  median,
  pairedRandomizationTest,
  pairedTTest,
  pearson,
  rankData,
  spearman,
  summarize,
} from './stats/index.js';
export {
  CorpusStore,
  defaultCorpusPath,
  type IngestSummary,
  ingestPaths,
  openCorpus,
} from './store/index.js';

export { VERSION } from './version.js';
