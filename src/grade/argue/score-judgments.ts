/**
 * `reports score`: judgments (ours or Auto-ARGUE's) and nugget banks → per-run, per-topic counts
 * → the Auto-ARGUE TSV. Reading is defensive (every judgments line is checked where the scorer
 * looks) and fast (JSON.parse, no schema library on the hot path).
 */
import { CitegeistError, location, quoteValue } from '../../core/index.js';
import { detectReportFormat, parseReport } from '../../formats/index.js';
import { argueRunRows, type ScoreRow, type TopicResult } from './argue-tsv.js';
import { emptyCounts, type GroundingCounts, type GroundingTally } from './count-report.js';
import { countRepeats, readRepeatSentences } from './judged-repeats.js';
import type { JudgedSentence } from './judgments.js';
import type { NuggetIndex } from './nugget-index.js';

export interface JudgedReportLine {
  runId: string;
  topicId: string;
  sentences: JudgedSentence[];
  /** Judged K > 1 times (`reports judge --repeats K`): the sentences as repeats 2..K judged them. */
  repeats?: JudgedSentence[][];
  where: string;
}

function bad(where: string, what: string): CitegeistError {
  return new CitegeistError(
    'INVALID_INPUT',
    `${where}: ${what}.`,
    'Give a judgments JSONL written by `citegeist reports judge` or by Auto-ARGUE.',
  );
}

function checkSentences(value: unknown, where: string): JudgedSentence[] {
  if (!Array.isArray(value)) throw bad(where, 'field "judgments" is not a list of sentences');
  value.forEach((s: Record<string, unknown>, i) => {
    const at = `${where}, sentence ${i + 1}`;
    if (typeof s?.text !== 'string') throw bad(at, 'field "text" is not a string');
    if (!Array.isArray(s.citations)) throw bad(at, 'field "citations" is not a list');
    for (const c of s.citations as { doc_id?: unknown }[]) {
      if (typeof c?.doc_id !== 'string') throw bad(at, 'a citation has no string "doc_id"');
    }
    if (!Array.isArray(s.judgments)) throw bad(at, 'field "judgments" is not a list');
    for (const j of s.judgments as { judgment_type_id?: unknown; response?: unknown }[]) {
      if (typeof j?.judgment_type_id !== 'string' || j.response === null || typeof j.response !== 'object') {
        throw bad(at, 'a judgment lacks "judgment_type_id" or "response"');
      }
    }
  });
  return value as JudgedSentence[];
}

/** The run and topic of a judged report: `report.metadata`, or any report layout `parseReport` reads. */
function idsOf(report: unknown, where: string): { runId: string; topicId: string } {
  const meta = (report as { metadata?: { run_id?: unknown; topic_id?: unknown } })?.metadata;
  if (
    meta &&
    typeof meta.run_id === 'string' &&
    (typeof meta.topic_id === 'string' || typeof meta.topic_id === 'number')
  ) {
    return { runId: meta.run_id, topicId: String(meta.topic_id) };
  }
  if (detectReportFormat(report)) {
    const r = parseReport(report, where);
    return { runId: r.runId, topicId: r.topicId };
  }
  throw bad(where, 'field "report" holds no run and topic id (report.metadata.run_id / topic_id)');
}

export interface ReadJudgmentsResult {
  reports: JudgedReportLine[];
  /** Earlier lines of the same (run, topic) replaced by a later one (a resumed or retried judge run). */
  superseded: number;
  /** Lines that could not be read (e.g. torn by an interrupted run), with the reason. */
  problems: { where: string; problem: string }[];
}

/**
 * Reads a judgments JSONL; the last line of a (run, topic) wins. A line that cannot be read is
 * reported in `problems` and the others are still read.
 */
export function parseJudgments(text: string, file: string): ReadJudgmentsResult {
  const byKey = new Map<string, JudgedReportLine>();
  const problems: ReadJudgmentsResult['problems'] = [];
  let superseded = 0;
  let start = 0;
  let lineNo = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    lineNo++;
    const line = text.slice(start, end);
    start = end + 1;
    if (line.trim() === '') continue;
    const where = location(file, lineNo);
    try {
      const value = JSON.parse(line) as { report?: unknown; judgments?: unknown; citegeist?: unknown };
      const { runId, topicId } = idsOf(value?.report, where);
      const sentences = checkSentences(value.judgments, where);
      const key = `${runId}\u0000${topicId}`;
      if (byKey.delete(key)) superseded++;
      const repeats = readRepeatSentences(value.citegeist, sentences, where);
      byKey.set(key, { runId, topicId, sentences, ...(repeats ? { repeats } : {}), where });
    } catch (error) {
      const problem =
        error instanceof CitegeistError ? error.problem : `not JSON (${(error as Error).message})`;
      problems.push({ where, problem });
    }
  }
  return { reports: [...byKey.values()], superseded, problems };
}

export interface RunScores {
  runId: string;
  topics: TopicResult[];
  /** Topics left out because some judgments failed (rerun `reports judge`, which retries them). */
  failedTopics: { topicId: string; failed: number; where: string }[];
  /** Topics with a bank or request but no report (scored 0 with --penalize-missing-topics). */
  missingTopics: string[];
  /** Reports whose topic has no nugget bank (not scored). */
  noBank: { topicId: string; where: string }[];
  unknownQuestions: number;
  unknownAnswers: number;
  /** How the claims of support of the scored topics were counted, by grounding (summed). */
  grounding: GroundingCounts;
}

function addTally(to: GroundingTally, from: GroundingTally): void {
  to.located += from.located;
  to.unverified += from.unverified;
  to.trusted += from.trusted;
  to.ungrounded += from.ungrounded;
}

export interface ScoreOptions {
  /** The topics a run is expected to cover (default: every topic with a bank). */
  expectedTopics?: readonly string[];
  penalizeMissingTopics?: boolean;
}

/** Scores judged reports run by run (runs in order of first appearance). */
export function scoreJudgedReports(
  reports: readonly JudgedReportLine[],
  banks: ReadonlyMap<string, NuggetIndex>,
  options: ScoreOptions = {},
): RunScores[] {
  const runs = new Map<string, JudgedReportLine[]>();
  for (const r of reports) {
    const list = runs.get(r.runId) ?? [];
    list.push(r);
    runs.set(r.runId, list);
  }
  const expected = options.expectedTopics ?? [...banks.keys()];
  return [...runs].map(([runId, lines]) => {
    const out: RunScores = {
      runId,
      topics: [],
      failedTopics: [],
      missingTopics: [],
      noBank: [],
      unknownQuestions: 0,
      unknownAnswers: 0,
      grounding: emptyCounts(0, 0).grounding,
    };
    for (const line of lines) {
      const index = banks.get(line.topicId);
      if (!index) {
        out.noBank.push({ topicId: line.topicId, where: line.where });
        continue;
      }
      // Judged K times: every repeat counted; one failed judgment in any repeat leaves the topic out.
      const judged = countRepeats(line.sentences, line.repeats, index);
      const counts = judged.counts[0]!;
      for (const c of judged.counts) {
        out.unknownQuestions += c.unknownQuestions;
        out.unknownAnswers += c.unknownAnswers;
      }
      if (judged.failed > 0)
        out.failedTopics.push({ topicId: line.topicId, failed: judged.failed, where: line.where });
      else {
        out.topics.push(
          judged.counts.length > 1
            ? { topicId: line.topicId, counts, repeats: judged.counts, verdicts: judged.verdicts }
            : { topicId: line.topicId, counts },
        );
        for (const c of judged.counts) {
          addTally(out.grounding.citations, c.grounding.citations);
          addTally(out.grounding.nuggetMatches, c.grounding.nuggetMatches);
        }
      }
    }
    const present = new Set(lines.map((l) => l.topicId));
    out.missingTopics = expected.filter((t) => !present.has(t));
    if (options.penalizeMissingTopics) {
      for (const topicId of out.missingTopics) {
        const index = banks.get(topicId);
        if (!index)
          throw new CitegeistError(
            'NUGGETS_MISSING',
            `Topic ${quoteValue(topicId)} has no nugget bank, so a missing report cannot be scored 0.`,
            'Add its bank, or leave out --penalize-missing-topics.',
          );
        out.topics.push({ topicId, counts: emptyCounts(index.count, index.weightedCount) });
      }
    }
    return out;
  });
}

/** All TSV rows of several runs, run after run; a run with no scored topic has no rows (not zeros). */
export function scoreRows(runs: readonly RunScores[]): ScoreRow[] {
  return runs.filter((r) => r.topics.length > 0).flatMap((r) => argueRunRows(r.runId, r.topics));
}
