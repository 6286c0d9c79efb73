/**
 * Reading a judged report judged K times (`reports judge --repeats K`, `judge-repeats.ts`) for
 * `reports score`: each repeat's sentences, its counts, each topic's values as the mean over the
 * repeats, and each single judgment's verdict in every repeat (for how often the judge changed it).
 */
import { CitegeistError } from '../../core/index.js';
import { mean } from '../../stats/index.js';
import { TOPIC_METRICS, type TopicMetric, topicValues } from './argue-metrics.js';
import { countReport, type ReportCounts } from './count-report.js';
import { JUDGMENT, type JudgedSentence, type RepeatSentence } from './judgments.js';
import type { NuggetIndex } from './nugget-index.js';

function bad(where: string, what: string): CitegeistError {
  return new CitegeistError(
    'INVALID_INPUT',
    `${where}: ${what}.`,
    'Give a judgments JSONL written by `citegeist reports judge` (rerun it with the same --out to repair the line).',
  );
}

/**
 * The sentences of repeats 2..K of a judgments line (`citegeist.repeat_judgments`): each later
 * repeat's judgments on the line's sentences. Undefined for a line judged once. A list that does
 * not match the line's sentences is an error naming the line.
 */
export function readRepeatSentences(
  citegeist: unknown,
  sentences: readonly JudgedSentence[],
  where: string,
): JudgedSentence[][] | undefined {
  const extra = (citegeist as { repeat_judgments?: unknown } | null | undefined)?.repeat_judgments;
  if (extra === undefined) return undefined;
  if (!Array.isArray(extra)) throw bad(where, 'field "citegeist.repeat_judgments" is not a list of repeats');
  return extra.map((repeat: unknown, r) => {
    const at = `${where}, repeat ${r + 2}`;
    if (!Array.isArray(repeat) || repeat.length !== sentences.length)
      throw bad(at, `the repeat does not hold one entry per sentence (${sentences.length})`);
    return repeat.map((s: RepeatSentence, i) => {
      if (!Array.isArray(s?.judgments))
        throw bad(`${at}, sentence ${i + 1}`, 'field "judgments" is not a list');
      for (const j of s.judgments) {
        if (typeof j?.judgment_type_id !== 'string' || j.response === null || typeof j.response !== 'object')
          throw bad(`${at}, sentence ${i + 1}`, 'a judgment lacks "judgment_type_id" or "response"');
      }
      const { failed_judgments: _f, ...line } = sentences[i]!;
      return s.failed_judgments
        ? { ...line, judgments: s.judgments, failed_judgments: s.failed_judgments }
        : { ...line, judgments: s.judgments };
    });
  });
}

/** One judgment's verdicts over the repeats: 1 yes, 0 no, by judgment type (`judgmentVerdicts`). */
export interface RepeatedVerdict {
  type: string;
  values: number[];
}

/**
 * The counts of a judged report in each of its K repeats (the line's own sentences first), its
 * failed judgments over every repeat, and each single judgment's verdict in every repeat in which
 * it was judged (a yes/no question about a sentence or citation; for nugget matches, each answer
 * any repeat matched to the sentence). K = 1: the one count and no verdicts.
 */
export function countRepeats(
  sentences: readonly JudgedSentence[],
  repeats: readonly (readonly JudgedSentence[])[] | undefined,
  index: NuggetIndex,
): { counts: ReportCounts[]; failed: number; verdicts: RepeatedVerdict[] } {
  const all = [sentences, ...(repeats ?? [])];
  const counts = all.map((s) => countReport(s, index));
  return {
    counts,
    failed: counts.reduce((n, c) => n + c.failed, 0),
    verdicts: all.length > 1 ? judgmentVerdicts(all) : [],
  };
}

/** Each topic value as the mean over the repeats' values (`mean`); one repeat: its values. */
export function topicValuesOverRepeats(counts: readonly ReportCounts[]): Record<TopicMetric, number> {
  const each = counts.map(topicValues);
  if (each.length === 1) return each[0]!;
  const out = {} as Record<TopicMetric, number>;
  for (const m of TOPIC_METRICS) out[m] = mean(each.map((v) => v[m])) ?? 0;
  return out;
}

const YES_NO: Record<string, string> = {
  [JUDGMENT.attested]: 'is_attested',
  [JUDGMENT.relevance]: 'is_relevant',
  [JUDGMENT.requiresCitation]: 'requires_citation',
  [JUDGMENT.firstInstance]: 'is_first_instance',
  [JUDGMENT.negative]: 'is_negative',
};

/** Per single judgment (sentence, type, cited document; or sentence, question, answer) its verdict per repeat. */
function judgmentVerdicts(repeats: readonly (readonly JudgedSentence[])[]): RepeatedVerdict[] {
  const byKey = new Map<string, RepeatedVerdict>();
  const add = (key: string, type: string, value: number) => {
    const v = byKey.get(key) ?? { type, values: [] };
    v.values.push(value);
    byKey.set(key, v);
  };
  // The answers any repeat matched to a sentence: a repeat that judged the sentence's nugget
  // matches and did not match one of them said no to it.
  const matched = new Map<number, Set<string>>();
  for (const sentences of repeats) {
    sentences.forEach((s, i) => {
      for (const j of s.judgments) {
        if (j.judgment_type_id !== JUDGMENT.answers) continue;
        const set = matched.get(i) ?? new Set<string>();
        for (const m of (
          j.response as { matched_nuggets?: { question_text: string; matched_answer?: string[] }[] }
        ).matched_nuggets ?? [])
          for (const a of m.matched_answer ?? []) set.add(`${m.question_text}\u0000${a}`);
        matched.set(i, set);
      }
    });
  }
  for (const sentences of repeats) {
    sentences.forEach((s, i) => {
      let answers: Set<string> | null = null;
      for (const j of s.judgments) {
        const r = j.response as unknown as Record<string, unknown>;
        const field = YES_NO[j.judgment_type_id];
        if (field)
          add(
            `${i}\u0000${j.judgment_type_id}\u0000${j.provenance?.doc_id ?? ''}`,
            j.judgment_type_id,
            r[field] === true ? 1 : 0,
          );
        else if (j.judgment_type_id === JUDGMENT.answers && answers === null) {
          // Recorded once per citation with the same matches: read once per sentence.
          answers = new Set<string>();
          for (const m of (r.matched_nuggets as { question_text: string; matched_answer?: string[] }[]) ?? [])
            for (const a of m.matched_answer ?? []) answers.add(`${m.question_text}\u0000${a}`);
          for (const key of matched.get(i) ?? [])
            add(`${i}\u0000answers\u0000${key}`, JUDGMENT.answers, answers.has(key) ? 1 : 0);
        }
      }
    });
  }
  return [...byKey.values()];
}
