import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What a report workspace holds besides its two runs. */
export interface ReportWorkspaceOptions {
  /** Questions (default 12). */
  rows?: number;
  /** Distinct domains (default 2): 51 makes the by-domain charts wider than the page. */
  domains?: number;
  /** Prefix the first row id with this many characters (a very long id). */
  longId?: number;
  /** Write a VETSCORE file with long claims and evidence. */
  faithfulness?: boolean;
}

const jsonl = (rows: readonly unknown[]) => rows.map((r) => `${JSON.stringify(r)}\n`).join('');
const sentence = (i: number) =>
  `Sentence ${i} of the paper reports that measurement ${i} was ${i * 7} units.`;
export const SPREAD_TIES = [
  // Citation precision of runs alpha and beta on the first three rows: the same disagreement 0.2
  // three times, which floating point writes as 0.19999999999999996, 0.2 and 0.19999999999999996.
  [0.6, 0.4],
  [0.5, 0.3],
  [0.7, 0.5],
] as const;

/**
 * A workspace for the report's browser tests: one paper (`papers/p1.txt`), a dataset, two runs
 * (`alpha`, `beta`) whose answers carry citation markers `[^1]`, `[^1, ^2]` and a dangling `[^9]`,
 * and their grades written by hand so the scores are known (the report reads grades rows as
 * written). Citation precision of the first three rows ties on disagreement (`SPREAD_TIES`); on
 * the others alpha and beta agree except on every third row.
 */
export function reportWorkspace(options: ReportWorkspaceOptions = {}): {
  dir: string;
  ids: string[];
  args: string[];
} {
  const { rows = 12, domains = 2, longId = 0, faithfulness = false } = options;
  const dir = mkdtempSync(join(tmpdir(), 'citegeist-report-views-'));
  mkdirSync(join(dir, 'papers'));
  writeFileSync(
    join(dir, 'papers', 'p1.txt'),
    Array.from({ length: rows + 2 }, (_, i) => sentence(i)).join('\n\n'),
  );
  const ids = Array.from({ length: rows }, (_, i) =>
    i === 0 && longId > 0 ? `${'x'.repeat(longId)}-q00` : `q${String(i).padStart(2, '0')}`,
  );
  const types = ['lookup', 'comprehension', 'multi_hop'];
  const domainOf = (i: number) => `domain ${i % domains} machine_learning_and_evaluation`;
  writeFileSync(
    join(dir, 'dataset.jsonl'),
    jsonl(
      ids.map((id, i) => ({
        row_id: id,
        paper_id: 'p1',
        domain: domainOf(i),
        question_type: types[i % 3],
        question: `What was measurement ${i}?`,
        expected_answer: `${i * 7} units.`,
        expected_references: [{ section_label: 'Results', alternatives: [sentence(i)] }],
      })),
    ),
  );
  const files: string[] = [];
  for (const [r, label] of ['alpha', 'beta'].entries()) {
    const runRows = ids.map((id, i) => ({
      row_id: id,
      model: label,
      answer: `Measurement ${i} was ${i * 7} units. [^1] It follows the next one [^1, ^2] and a missing one [^9].`,
      citations: [
        { key: '1', quote: sentence(i) },
        { key: '2', quote: sentence(i + 1) },
      ],
    }));
    writeFileSync(join(dir, `run-${label}.jsonl`), jsonl(runRows));
    const gradeRows = ids.map((id, i) => {
      const tie = SPREAD_TIES[i];
      const precision = tie ? tie[r]! : i % 3 === 0 && r === 1 ? 0.5 : 1;
      return {
        row_id: id,
        model: label,
        label,
        paper_id: 'p1',
        question_type: types[i % 3],
        domain: domainOf(i),
        citation_precision: precision,
        section_coverage: 1,
        citation_accuracy: 1,
        status: { citation_precision: 'scored', section_coverage: 'scored', citation_accuracy: 'scored' },
        errors: {},
        n_citations: 2,
        answer_failed: false,
      };
    });
    writeFileSync(join(dir, `grades-${label}.jsonl`), jsonl(gradeRows));
    files.push(`grades-${label}.jsonl`);
  }
  const args = [
    'report',
    '--grades',
    ...files,
    '--runs',
    'run-alpha.jsonl',
    'run-beta.jsonl',
    '--dataset',
    'dataset.jsonl',
    '--papers',
    'papers',
  ];
  if (faithfulness) {
    const long = (i: number) => `${sentence(i)} `.repeat(6).trim();
    writeFileSync(
      join(dir, 'faithfulness.jsonl'),
      jsonl([
        { citegeist_manifest: 1, kind: 'faithfulness', label: 'alpha', settings: {} },
        {
          id: ids[1],
          question: 'What was measurement 1?',
          status: 'scored',
          score: 0.5,
          p: 2.426,
          judges: { verifier: 'fake-verifier-with-a-long-name-that-does-not-break-anywhere-at-all' },
          segments: [
            {
              index: 0,
              text: long(1),
              keys: ['1'],
              status: 'scored',
              penalty: 0.5,
              claims: [
                {
                  index: 0,
                  text: `${'unbroken'.repeat(20)} ${long(2)}`,
                  status: 'scored',
                  v: 0,
                  w: 3,
                  verdict: 'unverified',
                  rationale: long(3),
                  harm_rationale: long(4),
                  evidence_quote: `${'E'.repeat(300)} ${long(5)}`,
                  span: null,
                  nearest: { key: '1', start: 0, end: 4, text: long(6), similarity: 0.41 },
                },
              ],
            },
          ],
          failures: [],
        },
      ]),
    );
    args.push('--faithfulness', 'faithfulness.jsonl');
  }
  return { dir, ids, args };
}
