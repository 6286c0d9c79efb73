/**
 * DoGMaTiQ's released selection step (manestay/dogmatiq `step4_select_top_nuggets.py`) on its
 * released banks (../shared/data/nuggets; skipped when absent, they carry no licence):
 * - every bank selected (most-common and sample, top 20: banks of ≤ 20 are kept whole) and written
 *   back byte for byte;
 * - on the two topic-1001 banks merged with the reference library's merge, most-common and
 *   `random.seed(1234); random.sample(…, 20)` against the selections CPython 3.11 computed.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { addNuggets, nuggetBankText, nuggetEntries, readNuggetFile } from '../../src/formats/index.js';
import { selectNuggets } from '../../src/generate/index.js';
import { sharedDataPath } from '../../src/testing/index.js';
import type { ParityCheck } from './parity-check.js';

const REFERENCE =
  'DoGMaTiQ selection step (manestay/dogmatiq @ 6577313e step4_select_top_nuggets.py) and CPython 3.11 random';

export async function run(): Promise<ParityCheck[]> {
  const dir = sharedDataPath('nuggets');
  if (!existsSync(dir)) {
    console.log('dogmatiq parity: ../shared/data/nuggets not found; skipped');
    return [];
  }
  const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  let same = 0;
  for (const f of files) {
    const text = readFileSync(join(dir, f), 'utf8');
    const ok = (['most-common', 'sample'] as const).every((method) => {
      const [loaded] = readNuggetFile(join(dir, f));
      selectNuggets(loaded!.bank, { method, topK: 20 });
      return nuggetBankText(loaded!.bank) === text;
    });
    if (ok) same++;
  }
  // Positions in the merged bank (38 nuggets), computed in CPython 3.11 from the same merge.
  const expected = {
    common: [20, 21, 22, 8, 23, 24, 15, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 2, 36],
    sample: [28, 7, 0, 5, 2, 34, 6, 24, 11, 36, 35, 27, 25, 26, 29, 20, 19, 15, 21, 14],
  };
  const merged = () => {
    const [a] = readNuggetFile(join(dir, 'nugget_with_scores_1001.v3.json'));
    const [b] = readNuggetFile(join(dir, 'nugget_1001.v3.json'));
    addNuggets(
      a!.bank,
      nuggetEntries(b!.bank).map(([, n]) => n),
    );
    return a!.bank;
  };
  const keys = nuggetEntries(merged()).map(([k]) => k);
  const positions = (method: 'most-common' | 'sample') => {
    const bank = merged();
    selectNuggets(bank, { method, topK: 20, seed: 1234 });
    return nuggetEntries(bank).map(([k]) => keys.indexOf(k));
  };
  const common = JSON.stringify(positions('most-common')) === JSON.stringify(expected.common);
  const sample = JSON.stringify(positions('sample')) === JSON.stringify(expected.sample);
  return [
    {
      reference: REFERENCE,
      compared:
        '`nuggets select` (most-common, sample; top 20) on the released banks, written back byte for byte',
      files: files.join(', '),
      result: `${same} of ${files.length} byte-identical`,
      pass: same === files.length,
    },
    {
      reference: REFERENCE,
      compared: 'most-common order and seeded sample (seed 1234) on a merged bank vs CPython',
      files: 'nugget_with_scores_1001.v3.json + nugget_1001.v3.json (38 nuggets after the merge)',
      result: `most-common ${common ? 'equal' : 'differs'}, sample ${sample ? 'equal' : 'differs'} (20 of 38 each)`,
      pass: common && sample,
    },
  ];
}
