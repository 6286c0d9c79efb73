import { CitegeistError, location, quoteValue } from '../core/index.js';
import { compareBytes } from './byte-order.js';

/** One judgement line of a qrels file: `qid iter docno rel`. */
export interface QrelsEntry {
  docno: string;
  rel: number;
}

/** Judgements per topic, topics in byte order of their ids (as trec_eval keeps them). */
export interface Qrels {
  topics: Map<string, QrelsEntry[]>;
}

/** One retrieved document of a run line: `qid iter docno rank sim run_id`. */
export interface RunEntry {
  docno: string;
  sim: number;
}

/** Retrieved documents per topic; the rank column is ignored (as trec_eval does). */
export interface Run {
  topics: Map<string, RunEntry[]>;
  /** The run_id of the last content line (trec_eval reports only that one). */
  runId: string;
}

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const SPECIAL = /^([+-]?)(inf|infinity|nan)$/i;
/** C's isspace in the C locale (JavaScript's \s also matches Unicode spaces). */
const FIELD_SEPARATOR = /[ \t\n\v\f\r]+/;

/**
 * A number as C `atof` reads it when the whole field is a number (decimal, exponent, inf, nan);
 * null for anything else (atof would silently read a prefix or 0, which we refuse).
 */
export function parseCDouble(text: string): number | null {
  if (DECIMAL.test(text)) return Number.parseFloat(text);
  const special = SPECIAL.exec(text);
  if (!special) return null;
  const value = (special[2] as string).toLowerCase() === 'nan' ? Number.NaN : Number.POSITIVE_INFINITY;
  return special[1] === '-' ? -value : value;
}

export function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export function sortedTopics<T>(topics: Map<string, T>): Map<string, T> {
  return new Map([...topics.entries()].sort((a, b) => compareBytes(a[0], b[0])));
}

/**
 * Content lines split on whitespace; `line` is 1-based. Judgement files (qrels, prefs, z-scores)
 * skip lines whose first character is `#` (get_qrels.c reads a `#` only at the start of a line, so
 * an id like `CR#93` stays an id); run files also skip lines whose first non-blank character is
 * `#` (get_trec_results.c). Blank lines are skipped in both (trec_eval rejects them in qrels).
 */
export function* contentLines(
  text: string,
  comments: 'line-start' | 'first-field',
): Generator<{ raw: string; line: number; fields: string[] }> {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    const trimmed = raw.replace(/^[ \t\v\f\r]+|[ \t\v\f\r]+$/g, '');
    if (trimmed === '') continue;
    if ((comments === 'line-start' ? raw : trimmed).startsWith('#')) continue;
    yield { raw, line: i + 1, fields: trimmed.split(FIELD_SEPARATOR) };
  }
}

export function malformed(
  file: string,
  line: number,
  what: string,
  raw: string,
  fix: string,
): CitegeistError {
  return new CitegeistError('INVALID_INPUT', `${location(file, line)}: ${what}: ${quoteValue(raw)}.`, fix, {
    where: { file, line },
  });
}

/** The field count check every judgement format shares. */
export function expectFields(
  file: string,
  where: { raw: string; line: number; fields: string[] },
  count: number,
  layout: string,
): void {
  if (where.fields.length !== count) {
    throw malformed(
      file,
      where.line,
      `expected ${count} fields "${layout}", found ${where.fields.length}`,
      where.raw,
      `Fix the line; each line is "${layout}".`,
    );
  }
}

/**
 * The highest relevance grade read. trec_eval keeps a count per grade up to the highest one
 * (an array of max grade + 1), so a grade in the millions is a typo or a score in the wrong column,
 * never a judgement; a grade of 10^22 would need more memory than any machine has.
 */
export const MAX_RELEVANCE_GRADE = 1_000_000;

/**
 * A whole-number relevance grade, at most MAX_RELEVANCE_GRADE. trec_eval reads it with atol, which
 * takes the leading digits of anything (`1.9` and `1e3` are 1, `abc` is 0); citegeist refuses all
 * but an integer, so a grade is never read as another one without a word.
 */
export function parseGrade(file: string, line: number, text: string): number {
  if (!INTEGER.test(text)) {
    throw malformed(
      file,
      line,
      'relevance is not an integer',
      text,
      'Write the grade as an integer such as 0, 1 or 2 (0 = not relevant, negative = pooled but unjudged); trec_eval would read "1.9" or "1e3" as 1.',
    );
  }
  const grade = Number.parseInt(text, 10);
  if (grade > MAX_RELEVANCE_GRADE) {
    throw malformed(
      file,
      line,
      `relevance grade is above ${MAX_RELEVANCE_GRADE.toLocaleString('en-US')}, the highest citegeist reads`,
      text,
      'Use a small integer grade (0 = not relevant, 1, 2, … more relevant); check that the columns are "qid iter docno rel".',
    );
  }
  return grade;
}

/**
 * Parses a qrels file (`qid iter docno rel`, whitespace separated, exactly four fields). Lines
 * starting with `#` and blank lines are skipped. `rel` must be an integer (negative = in the pool
 * but unjudged). Judgements are kept per topic in byte order of docno, topics in byte order of
 * qid, as get_qrels.c sorts them.
 */
export function parseQrels(text: string, file = 'qrels'): Qrels {
  const topics = new Map<string, QrelsEntry[]>();
  for (const where of contentLines(text, 'line-start')) {
    expectFields(file, where, 4, 'qid iter docno rel');
    const [qid, , docno, relText] = where.fields as [string, string, string, string];
    pushTo(topics, qid, { docno, rel: parseGrade(file, where.line, relText) });
  }
  for (const list of topics.values()) list.sort((a, b) => compareBytes(a.docno, b.docno));
  return { topics: sortedTopics(topics) };
}

/**
 * Parses a TREC run file (`qid iter docno rank sim run_id [ignored…]`). Comment (`#`) and blank
 * lines are skipped; fields after run_id are ignored and the run_id of the last line is kept, as
 * in get_trec_results.c.
 */
export function parseRun(text: string, file = 'run'): Run {
  const topics = new Map<string, RunEntry[]>();
  let runId = '';
  for (const { raw, line, fields } of contentLines(text, 'first-field')) {
    if (fields.length < 6) {
      throw malformed(
        file,
        line,
        `expected 6 fields "qid iter docno rank score run_id", found ${fields.length}`,
        raw,
        'Fix the line; run lines are "topic Q0 docid rank score tag".',
      );
    }
    const [qid, , docno, , simText, tag] = fields as [string, string, string, string, string, string];
    const sim = parseCDouble(simText);
    if (sim === null) {
      // trec_eval (get_trec_results.c) would also read hexadecimal (0x10 = 16) or the leading digits of a word.
      throw malformed(
        file,
        line,
        'score is not a decimal number',
        simText,
        'Write the score in column 5 as a decimal number such as 12.5 or 1e-3.',
      );
    }
    pushTo(topics, qid, { docno, sim });
    runId = tag;
  }
  return { topics: sortedTopics(topics), runId };
}

/** A ranked result to write as a run line. */
export interface RankedResult {
  qid: string;
  docno: string;
  score: number;
}

/**
 * Writes a TREC run file. Per topic, results are written in the order trec_eval will rank them
 * (score descending, ties by docno descending) with ranks 1…n, so the file reads as it scores.
 */
export function formatRun(results: Iterable<RankedResult>, runId: string): string {
  if (/\s/.test(runId) || runId === '') {
    throw new CitegeistError(
      'INVALID_INPUT',
      `Run id ${quoteValue(runId)} is empty or has whitespace.`,
      'Use a single word as run id.',
    );
  }
  const byTopic = new Map<string, RankedResult[]>();
  for (const r of results) {
    if (/\s/.test(r.qid) || /\s/.test(r.docno) || r.qid === '' || r.docno === '') {
      throw new CitegeistError(
        'INVALID_INPUT',
        `Topic ${quoteValue(r.qid)} / document ${quoteValue(r.docno)} is empty or contains whitespace.`,
        'TREC files are whitespace separated; use ids without spaces.',
      );
    }
    pushTo(byTopic, r.qid, r);
  }
  const out: string[] = [];
  for (const [qid, list] of byTopic) {
    list.sort((a, b) => b.score - a.score || compareBytes(b.docno, a.docno));
    list.forEach((r, i) => {
      out.push(`${qid} Q0 ${r.docno} ${i + 1} ${formatScore(r.score)} ${runId}\n`);
    });
  }
  return out.join('');
}

/** Shortest text that parses back to the same double (so ties and order survive the file). */
function formatScore(score: number): string {
  if (!Number.isFinite(score)) {
    throw new CitegeistError(
      'INVALID_INPUT',
      `Score ${score} is not finite.`,
      'Scores must be finite numbers.',
    );
  }
  return String(score).includes('e') ? score.toExponential() : String(score);
}
