/**
 * The grading benchmark's workload: ResearchQA-shaped answer rows over the 281 QASPER dev papers
 * (real text). Each row has 1–3 evidence groups of 2–3 alternatives (50–200 words, taken from the
 * paper) and 1–4 quotes: verbatim sentences, whole alternatives, lightly edited quotes and
 * fabricated ones; 10% are adversarial refusal rows. Seeded: the first N rows of a larger workload
 * are the rows of a smaller one.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type DatasetRow, DatasetRowSchema, type RunRow, RunRowSchema } from '../src/core/index.js';
import type { GradeRow } from '../src/grade/index.js';
import { createRandom } from '../src/stats/index.js';

/** The papers of a folder of `<id>.txt` files. */
export function readPapers(dir: string): Map<string, string> {
  return new Map(
    readdirSync(dir)
      .filter((f) => f.endsWith('.txt'))
      .map((f) => [f.replace(/\.txt$/, ''), readFileSync(join(dir, f), 'utf8')]),
  );
}

function sentencesOf(text: string): string[] {
  return text
    .split(/\n\n+/)
    .filter((p) => !p.startsWith('#') && p.length > 200)
    .flatMap((p) => p.split(/(?<=[.!?])\s+(?=[A-Z])/))
    .filter((s) => s.length > 40);
}

/** `count` dataset rows and their answers. */
export function buildWorkload(papers: Map<string, string>, count: number) {
  const rand = createRandom(7);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const ids = [...papers.keys()];
  const sentences = new Map(ids.map((id) => [id, sentencesOf(papers.get(id)!)]));
  const rows: DatasetRow[] = [];
  const runs: RunRow[] = [];
  const alternative = (ss: string[]) => {
    const at = Math.floor(rand() * Math.max(1, ss.length - 6));
    let text = '';
    for (let i = at; i < ss.length && text.split(' ').length < 50 + rand() * 100; i++) text += `${ss[i]} `;
    return text.trim();
  };
  for (let r = 0; r < count; r++) {
    const id = pick(ids);
    const ss = sentences.get(id)!;
    const adversarial = rand() < 0.1;
    const groups = adversarial
      ? []
      : Array.from({ length: 1 + Math.floor(rand() * 3) }, (_, g) => ({
          section_label: `S${g}`,
          alternatives: Array.from({ length: 2 + Math.floor(rand() * 2) }, () => alternative(ss)),
        }));
    const quotes = Array.from({ length: 1 + Math.floor(rand() * 4) }, () => {
      const kind = rand();
      const alt = groups.length > 0 ? pick(pick(groups).alternatives) : pick(ss);
      if (kind < 0.35) return pick(alt.split(/(?<=[.!?])\s+/));
      if (kind < 0.6) return alt;
      if (kind < 0.8) return pick(ss).replace(/\b(the|a|of)\b/, 'some');
      return `We fabricate ${Math.floor(rand() * 1000)} results on ${pick(ss).slice(0, 60)}`;
    });
    const rowId = `${id}_row${r}`;
    rows.push(
      DatasetRowSchema.parse({
        row_id: rowId,
        paper_id: id,
        question_type: adversarial ? 'adversarial' : groups.length > 1 ? 'multi_hop' : 'lookup',
        question: 'q',
        expected_references: groups,
        expected_refusal: adversarial ? true : null,
      }),
    );
    runs.push(
      RunRowSchema.parse({
        row_id: rowId,
        model: 'bench',
        citations: quotes.map((q, i) => ({ key: `${i + 1}`, quote: q })),
      }),
    );
  }
  return { rows, runs };
}

/**
 * Writes rows as the published harness's files, which both citegeist and the published grader
 * read: the dataset as `eval_dataset.json` and the answers as a results list
 * (`actual_citations: [{key, reference}]`).
 */
export function writePublishedFiles(
  rows: readonly DatasetRow[],
  runs: readonly RunRow[],
  files: { dataset: string; run: string },
): void {
  const published = rows.map((r) => ({
    paper_id: r.paper_id,
    domain: r.domain,
    row_id: r.row_id,
    question_type: r.question_type,
    question: r.question,
    expected_answer: r.expected_answer,
    expected_references: r.expected_references,
    ...(r.expected_refusal === null ? {} : { expected_refusal: r.expected_refusal }),
    judge_rubric: null,
    metadata: {},
  }));
  const envelope = { version: '1.0', created_at: '', total_rows: published.length, rows: published };
  writeFileSync(files.dataset, JSON.stringify(envelope));
  const results = runs.map((r) => ({
    row_id: r.row_id,
    actual_answer: r.answer,
    actual_citations: r.citations.map((c) => ({ key: c.key, reference: c.quote })),
    latency_seconds: null,
    error: null,
  }));
  writeFileSync(files.run, JSON.stringify(results));
}

export const PUBLISHED_METRICS = [
  'citation_precision',
  'section_coverage',
  'citation_accuracy',
  'refusal_correctness',
] as const;

/** An order-sensitive digest of every row's four metrics (exact values and nulls), to compare runs. */
export function metricDigest(seed: number, g: Pick<GradeRow, (typeof PUBLISHED_METRICS)[number]>): number {
  let h = seed;
  for (const v of [g.citation_precision, g.section_coverage, g.citation_accuracy, g.refusal_correctness]) {
    const s = v === null ? 'n' : String(v);
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
    h = Math.imul(h ^ 0x7c, 0x01000193);
  }
  return h >>> 0;
}
