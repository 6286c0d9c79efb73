import type { CardNote } from '../grade/index.js';
import type { PairwiseTable } from '../stats/index.js';
/**
 * The data a report embeds as JSON and its script renders: every value the page shows comes from
 * here. Field names are short because a report of 5 runs × 1,000 rows carries tens of thousands of
 * citations; each is documented where it is declared. Indexes (`q`, `r`, `p`, `m`) point into the
 * lists of this object.
 */

/** A metric column (from the grade stage's registry). */
export interface MetricInfo {
  id: string;
  label: string;
  description: string;
  higherIsBetter: boolean;
  range: [number, number];
  kind: string;
}

/** One input file, as the report says how it was made. */
export interface InputInfo {
  kind: 'grades' | 'run' | 'dataset' | 'corpus' | 'papers' | 'faithfulness' | 'judgments' | 'nuggets';
  /** The file name as given (relative to the working folder), never an absolute machine path. */
  name: string;
  sha256: string | null;
  /** Records read, and records skipped as unreadable. */
  rows: number;
  skipped: number;
  /** The run label of its manifest record, when it has one. */
  label: string | null;
  /** The manifest's settings and tool version, when present. */
  settings: Record<string, unknown> | null;
  version: string | null;
}

/** One metric over a group of answers. */
export interface MetricStats {
  n: number;
  mean: number | null;
  ci: [number, number] | null;
  failed: number;
  na: number;
}

/** Figures of one run (label) over a group of rows. */
export interface GroupStats {
  rows: number;
  answerFailures: number;
  metrics: Record<string, MetricStats>;
}

/** A run: the label models are keyed by in every table. */
export interface RunInfo {
  label: string;
  /** The model string(s) of its rows. */
  model: string;
  /** Palette index (stable colour per run). */
  colour: number;
  overall: GroupStats;
  byType: Record<string, GroupStats>;
  byDomain: Record<string, GroupStats>;
  /** Quotes the matcher checked, and those accepted only by a prefix rule. */
  quotes: { checked: number; prefixOnly: number };
  /** Latency and cost over answers not served from the cache; cache hits counted apart. */
  cost: {
    answered: number;
    cached: number;
    latency: { n: number; median: number | null; mean: number | null; p90: number | null };
    usd: number | null;
    usdPerAnswer: number | null;
    tokens: { input: number; output: number } | null;
  };
  /** Per metric, counts of row scores in equal bins over the metric's range. */
  histograms: Record<string, number[]>;
}

/** An evidence alternative of a gold group, located in the paper when possible. */
export interface GoldAlternative {
  text: string;
  /** Mark index in the paper, or null when the alternative is not in the paper text. */
  m: number | null;
  page: number | null;
}

export interface QuestionInfo {
  id: string;
  /** Index into `papers`, or null when the paper is not available. */
  p: number | null;
  paperId: string;
  type: string;
  domain: string;
  question: string;
  expected: string;
  groups: { label: string; alts: GoldAlternative[] }[];
  /** True when no dataset row was given (question text etc. unknown). */
  bare?: boolean;
}

/** One citation of an answer, with how it was checked. */
export interface CitationInfo {
  key: string;
  quote: string;
  /** The grader's rule (`exact`, `prefix`, `no-space`, `no-space-prefix`, `gapped`, `none`). */
  rule: string;
  /** The strict matcher's rule (`exact`, `no-space`, `none`). */
  strict: string;
  prefixOnly: boolean;
  /** Mark index of the matched span in the paper, when found. */
  m: number | null;
  page: number | null;
  section: string | null;
  /** The gold alternative it matched (0-based group and alternative), with the difflib ratio. */
  gold: { g: number; a: number; ratio: number | null } | null;
  /**
   * On a miss: the nearest passage and its similarity (0–1). `text` is null when the paper's
   * embedded text holds it (at mark `m`), so it is not stored twice.
   */
  near: { text: string | null; similarity: number; m: number | null; page: number | null } | null;
}

/** A judge's verdict on a row (factual accuracy and completeness come as metrics). */
export interface JudgeInfo {
  by: string | null;
  justification: string | null;
  /** Evidence the judge quoted and whether it was found (absent in grades from before grounding). */
  grounding: { claim: string; quote: string | null; status: string }[] | null;
  /** The judge's own factual accuracy when grounding capped it (else null). */
  ownFactual: number | null;
}

/** One run's answer to one question. */
export interface AnswerInfo {
  q: number;
  r: number;
  /** Answer text; null when no run file gave it. */
  text: string | null;
  error: string | null;
  cached: boolean;
  latency: number | null;
  cost: number | null;
  /** Metric values; a metric without one failed (`status`) or does not apply. */
  scores: Record<string, number>;
  /** `failed` for the metrics that failed (the reason is in `errors`). */
  status: Record<string, string>;
  errors: Record<string, string>;
  /** Citations the answer made (the quotes themselves need the run file). */
  nCitations: number;
  citations: CitationInfo[];
  judge: JudgeInfo | null;
  /** Index into `vetscore.answers` when VETSCORE graded this answer. */
  vet: number | null;
}

/** A highlighted span of a paper: [start, end, kind]; kind c = citation, p = prefix-only, g = gold, n = nearest. */
export type Mark = [number, number, 'c' | 'p' | 'g' | 'n'];

export interface PaperInfo {
  id: string;
  title: string;
  /** Text parts `[offset, text]`: the whole text, or excerpts around the marks (see `excerpted`). */
  parts: [number, string][];
  excerpted: boolean;
  length: number;
  /** `[number, start, end]` */
  pages: [number, number, number][];
  /** `[heading, start, end, level]` */
  sections: [string, number, number, number][];
  marks: Mark[];
}

export interface VetClaim {
  text: string;
  status: string;
  verdict: string | null;
  /** 1 when the claim counts as supported, 0 when not (after grounding). */
  v: number | null;
  harm: number | null;
  /** ω = harm^p, and its share of the answer's total weight over scored claims. */
  weight: number | null;
  share: number | null;
  rationale: string | null;
  harmRationale: string | null;
  evidence: string | null;
  /** The grounded evidence span (excerpt key and the text found there), or the nearest passage. */
  span: { key: string; text: string | null; rule: string | null } | null;
  nearest: { text: string; similarity: number } | null;
  failure: string | null;
}

export interface VetAnswer {
  id: string;
  /** The faithfulness file's run label. */
  label: string;
  question: string;
  status: string;
  score: number | null;
  p: number | null;
  judges: string | null;
  segments: { text: string; keys: string[]; status: string; penalty: number | null; claims: VetClaim[] }[];
  failures: string[];
  /** Index into `answers` when linked to a graded answer. */
  a: number | null;
}

export interface VetRunStats {
  label: string;
  answers: number;
  scored: number;
  failed: number;
  na: number;
  mean: number | null;
  ci: [number, number] | null;
  claims: number;
  unsupported: number;
  unverified: number;
  claimsFailed: number;
}

export interface ArgueCitation {
  doc: string;
  attested: boolean | null;
  relevant: boolean | null;
  evidence: string | null;
  located: boolean | null;
}

export interface ArgueSentence {
  text: string;
  citations: ArgueCitation[];
  /** Nugget indexes (into the report's `nuggets`) with the answers matched. */
  nuggets: { n: number; answers: string[] }[];
  failed: string[];
  /** Uncited-sentence judgments, e.g. `requires citation: yes`. */
  flags: string[];
}

export interface ArgueNugget {
  question: string;
  aggregator: string;
  importance: string | null;
  answers: string[];
  /** Sentence indexes that answered it, and the answers they gave. */
  by: { s: number; answers: string[] }[];
  /** OR: one gold answer given; AND: all of them. */
  satisfied: boolean;
  /** True when the nugget came from a judgment only (not in the bank). */
  unknown: boolean;
}

export interface ArgueReport {
  topic: string;
  run: string;
  title: string | null;
  sentences: ArgueSentence[];
  nuggets: ArgueNugget[];
  failed: number;
  truncated: number;
}

export interface ArgueRunStats {
  run: string;
  reports: number;
  sentences: number;
  citations: number;
  attested: number;
  judgedCitations: number;
  nuggets: number;
  nuggetsSatisfied: number;
  failed: number;
}

export interface ReportData {
  version: 1;
  title: string;
  generatedAt: string;
  tool: string;
  inputs: InputInfo[];
  /** Warnings met while building (rows skipped, papers missing…), shown at the top. */
  notes: string[];
  facts: [string, string][];
  metrics: MetricInfo[];
  runs: RunInfo[];
  questions: QuestionInfo[];
  answers: AnswerInfo[];
  papers: PaperInfo[];
  vetscore: { runs: VetRunStats[]; answers: VetAnswer[] } | null;
  argue: { runs: ArgueRunStats[]; reports: ArgueReport[] } | null;
  /** Each judge's agreement with people (its judge card) or that it has none, shown beside its numbers. */
  judgeCards?: CardNote[];
  /**
   * Every pair of runs on every metric (paired test, adjusted p), or null under two runs. Shown in
   * the overview's static HTML only: not embedded in the page's JSON.
   */
  pairwise: PairwiseTable | null;
}
