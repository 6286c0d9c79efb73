/**
 * Deterministic ResearchQA grading throughput: 50,000 ResearchQA-shaped answer rows over the 281
 * QASPER dev papers (real text). Each row has 1–3 evidence groups of 2–3 alternatives (50–200
 * words, taken from the paper) and 1–4 quotes: verbatim sentences, whole alternatives, lightly
 * edited quotes and fabricated ones; 10% are adversarial refusal rows. Graded by `gradeDeterministic`
 * in one thread and on all available threads (the default); both must give the same digest.
 * Acceptance: ≤ 10 s for the 50,000 rows on this machine, with the default threads.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { type DatasetRow, DatasetRowSchema, type RunRow, RunRowSchema } from '../src/core/index.js';
import { type GradeRow, gradeDeterministic } from '../src/grade/index.js';
import { createRandom } from '../src/stats/index.js';
import { sharedDataPath } from '../src/testing/index.js';
import { sequenceRatio } from '../src/text/index.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 50_000);

function sentencesOf(text: string): string[] {
  return text
    .split(/\n\n+/)
    .filter((p) => !p.startsWith('#') && p.length > 200)
    .flatMap((p) => p.split(/(?<=[.!?])\s+(?=[A-Z])/))
    .filter((s) => s.length > 40);
}

function build(papers: Map<string, string>) {
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
  for (let r = 0; r < ROWS; r++) {
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

/** An order-sensitive digest of every row's four metrics (exact values and nulls), to compare runs. */
function metricDigest(seed: number, g: GradeRow): number {
  let h = seed;
  for (const v of [g.citation_precision, g.section_coverage, g.citation_accuracy, g.refusal_correctness]) {
    const s = v === null ? 'n' : String(v);
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
    h = Math.imul(h ^ 0x7c, 0x01000193);
  }
  return h >>> 0;
}

export default async function (): Promise<void> {
  const dir = sharedDataPath('qasper-dev', 'papers');
  const papers = new Map(
    readdirSync(dir).map((f) => [f.replace(/\.txt$/, ''), readFileSync(join(dir, f), 'utf8')]),
  );
  const { rows, runs } = build(papers);
  const quotes = runs.reduce((n, r) => n + r.citations.length, 0);
  const alternatives = rows.reduce(
    (n, r) => n + r.expected_references.reduce((m, g) => m + g.alternatives.length, 0),
    0,
  );

  // Baseline in the same run: one difflib ratio per row over a quote/alternative pair.
  let t = performance.now();
  let sink = 0;
  for (let i = 0; i < 2000; i++) {
    const r = rows[i]!;
    const alt = r.expected_references[0]?.alternatives[0] ?? 'x';
    sink += sequenceRatio(runs[i]!.citations[0]!.quote.toLowerCase(), alt.toLowerCase());
  }
  const ratioMs = (performance.now() - t) / 2000;

  const jobs = rows.map((row, i) => ({ row, run: runs[i]! }));
  const available = Math.min(availableParallelism(), 8);
  for (const match of ['researchqa', 'span'] as const) {
    let single = 0;
    // One thread for reference, then the default (all available threads), which the target is about.
    for (const threads of [...new Set([1, available])]) {
      t = performance.now();
      const cpu = process.cpuUsage();
      const grades = await gradeDeterministic(jobs, (id) => papers.get(id) ?? null, {
        match,
        quoteMode: 'researchqa',
        threads,
      });
      const ms = performance.now() - t;
      const used = process.cpuUsage(cpu);
      let accuracy = 0;
      let digest = 0;
      for (const g of grades) {
        accuracy += g.citation_accuracy ?? 0;
        digest = metricDigest(digest, g);
      }
      if (threads === 1) single = ms;
      console.log(
        `match=${match}, ${threads} thread(s): ${rows.length} rows (${quotes} quotes, ${alternatives} alternatives, ${papers.size} papers) ` +
          `graded in ${(ms / 1000).toFixed(2)} s = ${Math.round(rows.length / (ms / 1000))} rows/s ` +
          `(process CPU ${((used.user + used.system) / 1e6).toFixed(2)} s); ${(ms / rows.length / ratioMs).toFixed(2)}× one full difflib ratio per row ` +
          `(${ratioMs.toFixed(3)} ms)${threads > 1 ? `; ${(single / ms).toFixed(2)}× faster than 1 thread` : ''}; ` +
          `${threads === available ? `acceptance ≤ 10 s: ${ms <= 10_000 ? 'PASS' : 'FAIL'}` : 'reference'} [checksum ${accuracy.toFixed(0)}/${sink.toFixed(0)}, digest ${digest.toString(16)}]`,
      );
    }
  }
}
