import { type AgreementSpec, type AgreementValues, measureEvaluator } from './agreement-measures.js';
import { binomialVariateFast } from './binomial-btrs.js';
import type { BootstrapInterval, BootstrapOptions } from './bootstrap.js';
import { quantileSorted } from './descriptive.js';
import type { PairTable } from './pair-table.js';
import { createRandom, randomInt } from './random.js';
import { assertOption, assertResampling } from './validate.js';

/** Cells per item below which a resample's counts are drawn as binomials rather than item by item. */
const CELL_RATIO = 16;

/**
 * Percentile bootstrap intervals for every measure of `spec` at once: each resample draws n items
 * with replacement, which for the pair table is a multinomial draw of its cell counts. With few
 * cells (a label scale) the counts are drawn directly as conditional binomials, O(cells) per
 * resample; with many (a continuous score) the n items are drawn one by one. Both give the same
 * bootstrap distribution. All measures see the same resamples (seeded mulberry32).
 */
export function bootstrapAgreement(
  table: PairTable,
  spec: AgreementSpec,
  options: BootstrapOptions = {},
): Partial<Record<keyof AgreementValues, BootstrapInterval>> {
  const { iterations = 10_000, confidence = 0.95, seed = 0 } = options;
  assertResampling('bootstrapAgreement', iterations, seed);
  assertOption(
    'bootstrapAgreement',
    'confidence',
    confidence,
    confidence > 0 && confidence < 1,
    'a number in (0, 1)',
  );
  const evaluate = measureEvaluator(table, spec);
  const estimates = evaluate(table.counts);
  const draws = new Map(spec.measures.map((m) => [m, [] as number[]]));
  const random = createRandom(seed);
  const cells = table.counts.length;
  const counts = new Float64Array(cells);
  const byBinomials = cells * CELL_RATIO < table.n;
  for (let b = 0; b < iterations && table.n > 0; b++) {
    counts.fill(0);
    if (byBinomials) {
      let remaining = table.n;
      let remainingWeight = table.n;
      for (let c = 0; c < cells && remaining > 0; c++) {
        const drawn =
          c === cells - 1
            ? remaining
            : binomialVariateFast(random, remaining, Math.min(1, table.counts[c]! / remainingWeight));
        counts[c] = drawn;
        remaining -= drawn;
        remainingWeight -= table.counts[c]!;
      }
    } else {
      for (let i = 0; i < table.n; i++) counts[table.itemCell[randomInt(random, table.n)]!]! += 1;
    }
    const values = evaluate(counts);
    for (const m of spec.measures) {
      const v = values[m];
      if (v !== null && v !== undefined) draws.get(m)!.push(v);
    }
  }
  const tail = (1 - confidence) / 2;
  const out: Partial<Record<keyof AgreementValues, BootstrapInterval>> = {};
  for (const m of spec.measures) {
    const estimate = estimates[m] ?? null;
    const values = draws.get(m)!.sort((a, b) => a - b);
    const ok = estimate !== null && values.length > 0;
    out[m] = {
      estimate,
      lower: ok ? quantileSorted(values, tail) : null,
      upper: ok ? quantileSorted(values, 1 - tail) : null,
      confidence,
      iterations,
      seed,
      undefinedResamples: table.n > 0 ? iterations - values.length : iterations,
    };
  }
  return out;
}
