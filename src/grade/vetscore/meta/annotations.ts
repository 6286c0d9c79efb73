import { quoteValue } from '../../../core/index.js';
import { parseCsv, parseJsonl } from '../../../io/index.js';

/** One expert judgment of one claim: aligned with the judge by (answer, segment, claim index). */
export interface Annotation {
  line: number;
  answer: string;
  segment: number;
  claim: number;
  annotator: string;
  /** null when the annotator left it empty. */
  verified: 0 | 1 | null;
  harm: 1 | 2 | 3 | 4 | 5 | null;
}

export interface AnnotationProblem {
  line: number;
  problem: string;
}

const TRUE = new Set(['1', 'true', 'yes', 'y', 'supported']);
const FALSE = new Set(['0', 'false', 'no', 'n', 'unsupported', 'contradicted']);

/**
 * Reads expert annotations (columns answer, segment, claim, annotator, verified, harm) from CSV or
 * JSONL (`format` picks; `auto` takes JSONL when the first non-blank character is `{`). Segment
 * and claim are 0-based indices as in the judge output. Bad rows and duplicate (answer, segment,
 * claim, annotator) rows are reported with their line and skipped.
 */
export function readAnnotations(
  text: string,
  file = 'annotations',
  format: 'csv' | 'jsonl' | 'auto' = 'auto',
): { annotations: Annotation[]; problems: AnnotationProblem[] } {
  const jsonl = format === 'jsonl' || (format === 'auto' && text.trimStart().startsWith('{'));
  const rows: { line: number; value: unknown }[] = [];
  const problems: AnnotationProblem[] = [];
  if (jsonl) {
    for (const entry of parseJsonl(text)) {
      if (entry.ok) rows.push({ line: entry.line, value: entry.value });
      else problems.push({ line: entry.line, problem: `not JSON (${entry.error})` });
    }
  } else {
    for (const record of parseCsv(text, file).records) rows.push({ line: record.line, value: record.values });
  }
  const annotations: Annotation[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    const read = readRow(row.value, row.line);
    if ('problem' in read) problems.push({ line: row.line, problem: read.problem });
    else {
      const key = `${read.answer}\u0000${read.segment}\u0000${read.claim}\u0000${read.annotator}`;
      if (seen.has(key))
        problems.push({ line: row.line, problem: 'duplicate (answer, segment, claim, annotator)' });
      else {
        seen.add(key);
        annotations.push(read);
      }
    }
  }
  return { annotations, problems };
}

function readRow(value: unknown, line: number): Annotation | { problem: string } {
  if (typeof value !== 'object' || value === null)
    return { problem: `expected an object, got ${quoteValue(value)}` };
  const v = value as Record<string, unknown>;
  const text = (name: string) => (v[name] === undefined || v[name] === null ? '' : String(v[name]).trim());
  for (const name of ['answer', 'segment', 'claim', 'annotator']) {
    if (text(name) === '') return { problem: `field "${name}" is missing` };
  }
  const segment = Number(text('segment'));
  const claim = Number(text('claim'));
  if (!Number.isInteger(segment) || segment < 0)
    return { problem: `field "segment" is not an index ≥ 0: ${quoteValue(v.segment)}` };
  if (!Number.isInteger(claim) || claim < 0)
    return { problem: `field "claim" is not an index ≥ 0: ${quoteValue(v.claim)}` };
  const ver = text('verified').toLowerCase();
  const verified = ver === '' ? null : TRUE.has(ver) ? 1 : FALSE.has(ver) ? 0 : undefined;
  if (verified === undefined) return { problem: `field "verified" is not 0/1: ${quoteValue(v.verified)}` };
  const h = text('harm');
  const harmN = h === '' ? null : Number(h);
  if (harmN !== null && (!Number.isInteger(harmN) || harmN < 1 || harmN > 5)) {
    return { problem: `field "harm" is not an integer 1–5: ${quoteValue(v.harm)}` };
  }
  if (verified === null && harmN === null) return { problem: 'neither "verified" nor "harm" is given' };
  return {
    line,
    answer: text('answer'),
    segment,
    claim,
    annotator: text('annotator'),
    verified,
    harm: harmN as Annotation['harm'],
  };
}
