/**
 * ResearchQA rows of docs/fidelity.md: citegeist's grader against the published one
 * (khoj-ai/openpaper server/evals/run_benchmark.py) on the frozen held-out set, per layout, and
 * the two ports it rests on (difflib's ratio in both argument orders, Python's round()).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pythonRound } from '../../src/python-compat/index.js';
import { sharedDataPath } from '../../src/testing/index.js';
import { sequenceRatio } from '../../src/text/index.js';
import type { ParityCheck } from './parity-check.js';
import { compareResearchqa, heldout, papersAvailable, reference } from './researchqa/compare.js';

const REF = 'ResearchQA grader (khoj-ai/openpaper run_benchmark.py @0db211cc)';
const n = (x: number) => x.toLocaleString('en-US');

export async function run(): Promise<ParityCheck[]> {
  return [...(await graderChecks()), difflibCheck(), roundCheck()];
}

async function graderChecks(): Promise<ParityCheck[]> {
  const set = heldout();
  const ref = reference();
  const quotes = Object.values(set.runs).reduce(
    (sum, run) => sum + run.reduce((k, r) => k + r.actual_citations.length, 0),
    0,
  );
  const files = `scripts/parity/researchqa/heldout.json.gz: ${n(set.rows.length)} QASPER dev rows (../shared/data/qasper-dev) × 2 runs (extractive baseline; seeded perturbations), ${n(quotes)} quotes, as the harness's results file and a bare list`;
  if (!papersAvailable()) {
    return [
      {
        reference: REF,
        compared: 'per-row metrics and summary means',
        files,
        result: 'not run: ../shared/data/qasper-dev/papers not found',
        pass: false,
      },
    ];
  }
  const results = await compareResearchqa();
  return results.map((r) => {
    const flat = r.layout === 'earlier flat list';
    return {
      reference: flat
        ? 'ResearchQA grader (khoj-ai/openpaper run_benchmark.py), its flat-list version (citation_recall; refusal by fuzzy match)'
        : REF,
      compared: flat
        ? "dataset read as the earlier flat list of quotes: every row's citation_precision, section_coverage (= citation_recall), refusal_correctness, citation_accuracy (the current rule: that grader never computed it), and their means as the current compute_summary takes them, exactly"
        : `dataset read as ${r.layout}: every row's citation_precision, section_coverage, citation_accuracy, refusal_correctness, and compute_summary's means (overall, per type, per domain), exactly`,
      files,
      result: `${n(r.values)} values of ${n(r.rows)} rows: ${r.mismatches.length} differ; ${r.means} means: ${r.meanMismatches.length} differ${flat ? '' : ` (swapping fuzzy_match's arguments would change ${ref.swapped_order_rows_changed.extractive} + ${ref.swapped_order_rows_changed.perturbed} rows)`}`,
      pass: r.mismatches.length === 0 && r.meanMismatches.length === 0,
    };
  });
}

function difflibCheck(): ParityCheck {
  const file = JSON.parse(readFileSync(sharedDataPath('stats', 'difflib_ratio_reference.json'), 'utf8')) as {
    pairs: { a: string; b: string; ratio: number }[];
  };
  const reversed = JSON.parse(
    readFileSync(
      join(import.meta.dirname, '..', '..', 'src', 'text', '__fixtures__', 'difflib-reversed-ratios.json'),
      'utf8',
    ),
  ) as { ratios: number[] };
  let worst = 0;
  for (const [i, p] of file.pairs.entries()) {
    const [a, b] = [p.a.toLowerCase(), p.b.toLowerCase()];
    worst = Math.max(
      worst,
      Math.abs(sequenceRatio(a, b) - p.ratio),
      Math.abs(sequenceRatio(b, a) - reversed.ratios[i]!),
    );
  }
  return {
    reference: 'CPython 3.11 difflib.SequenceMatcher(None, a, b).ratio()',
    compared: 'ratio in both argument orders (autojunk on b)',
    files:
      '../shared/data/stats/difflib_ratio_reference.json (300 QASPER text pairs) and src/text/__fixtures__/difflib-reversed-ratios.json',
    result: `600 ratios, max |Δ| ${worst.toExponential(1)}`,
    pass: worst <= 1e-12,
  };
}

function roundCheck(): ParityCheck {
  const ref = JSON.parse(
    readFileSync(
      join(
        import.meta.dirname,
        '..',
        '..',
        'src',
        'python-compat',
        '__fixtures__',
        'python-round-reference.json',
      ),
      'utf8',
    ),
  ) as { cases: [number, number, number][] };
  const wrong = ref.cases.filter(([x, d, y]) => !Object.is(pythonRound(x, d), y)).length;
  return {
    reference: 'CPython 3.11 round(x, ndigits)',
    compared: 'pythonRound (the per-row rounding of the ResearchQA metrics), bit for bit',
    files:
      'src/python-compat/__fixtures__/python-round-reference.json (exact ties, k/n for n ≤ 40, random values)',
    result: `${n(ref.cases.length)} cases: ${wrong} differ`,
    pass: wrong === 0,
  };
}
