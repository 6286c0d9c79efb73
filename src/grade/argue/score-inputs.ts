import type { LoadedBank, ReportRequest } from '../../formats/index.js';
import type { ScoreRow } from './argue-tsv.js';
import { indexNuggetBank, type NuggetIndex } from './nugget-index.js';
import {
  type JudgedReportLine,
  parseJudgments,
  type RunScores,
  scoreJudgedReports,
  scoreRows,
} from './score-judgments.js';

export interface ScoreInputs {
  /** Judgments files' texts, in order (a later file's line of the same run and topic wins). */
  judgments: { file: string; text: string }[];
  banks: ReadonlyMap<string, LoadedBank>;
  /** The topics every run should cover; default every topic with a bank. */
  requests?: ReadonlyMap<string, ReportRequest> | null;
  penalizeMissingTopics?: boolean;
  labelWeights?: Readonly<Record<string, number>>;
}

export interface ScoredInputs {
  runs: RunScores[];
  rows: ScoreRow[];
  /** Lines replaced by a later line of the same run and topic. */
  superseded: number;
  /** Lines that could not be read, with the reason. */
  problems: { where: string; problem: string }[];
  /** Importance labels with no weight (weighted as 1). */
  unweightedLabels: string[];
}

/** `reports score` without the files: judgments and banks → run scores and the TSV rows. */
export function scoreInputs(input: ScoreInputs): ScoredInputs {
  const indexes = new Map<string, NuggetIndex>();
  for (const [id, b] of input.banks) {
    indexes.set(
      id,
      indexNuggetBank(b.bank, b.where, input.labelWeights ? { labelWeights: input.labelWeights } : {}),
    );
  }
  const lines = new Map<string, JudgedReportLine>();
  const problems: ScoredInputs['problems'] = [];
  let superseded = 0;
  for (const { file, text } of input.judgments) {
    const read = parseJudgments(text, file);
    superseded += read.superseded;
    problems.push(...read.problems);
    for (const r of read.reports) {
      const key = `${r.runId}\u0000${r.topicId}`;
      if (lines.delete(key)) superseded++;
      lines.set(key, r);
    }
  }
  const runs = scoreJudgedReports([...lines.values()], indexes, {
    expectedTopics: input.requests ? [...input.requests.keys()] : [...indexes.keys()],
    penalizeMissingTopics: input.penalizeMissingTopics ?? false,
  });
  return {
    runs,
    rows: scoreRows(runs),
    superseded,
    problems,
    unweightedLabels: [...new Set([...indexes.values()].flatMap((i) => i.unweightedLabels))],
  };
}
