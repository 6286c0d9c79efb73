/** One printed value: `name` as trec_eval prints it (`P_10`); `text` for runid and relstring. */
export interface TrecValue {
  name: string;
  value: number;
  integer: boolean;
  text?: string;
}

/** What `trecEval` computed: the lines `formatTrecEval` prints, as values. */
export interface TrecEvalResult {
  /** Evaluated topics in trec_eval's order (byte order of topic ids), with their per-topic values. */
  queries: { qid: string; values: TrecValue[] }[];
  /** The `all` lines (in a `TrecEvalStopped`'s partial result: those finished before the stop). */
  summary: TrecValue[];
  numQueries: number;
  runId: string;
  /** Values are z-scores (`-Z`): printed with a `Z` prefix and four decimals. */
  zscores: boolean;
  /** Judged topics without results that were not scored (only with `missingTopics: 'skip'`). */
  unscoredTopics: string[];
}
