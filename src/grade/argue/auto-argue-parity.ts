/**
 * Scoring Auto-ARGUE's own published files with citegeist, for the parity test and `npm run parity`.
 * The reference is hltcoe/argue-viz @ ada21228 (`assets/example-report.judgments.jsonl`,
 * `assets/example-nuggets/`, `assets/example-report.scores.tsv`). Its repository states no
 * licence, so its files are not copied here: point `ARGUE_VIZ_DIR` at a checkout
 * (`git clone https://github.com/hltcoe/argue-viz && git -C argue-viz checkout ada21228`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readNuggetBanks } from '../../formats/index.js';
import { formatArgueTsv, parseArgueTsv } from './argue-tsv.js';
import { scoreInputs } from './score-inputs.js';

export const ARGUE_VIZ_COMMIT = 'ada21228f5fe166ee28fc3efc8a5305aecc47c45';

/** The argue-viz checkout: `ARGUE_VIZ_DIR`, else `argue-viz` in the shared data folder; null if absent. */
export function argueVizDir(
  env: Readonly<Record<string, string | undefined>>,
  sharedData: string,
): string | null {
  const candidates = [env.ARGUE_VIZ_DIR, join(sharedData, 'argue-viz')].filter((d): d is string => !!d);
  return candidates.find((d) => existsSync(join(d, 'assets', 'example-report.scores.tsv'))) ?? null;
}

export interface ParityOutcome {
  /** Rows of the published TSV. */
  rows: number;
  /** Rows whose run, topic and metric match in order. */
  sameKeys: number;
  /** Largest |ours − theirs| over all values. */
  maxAbsDiff: number;
  /** Rows whose value differs by more than 1e-9. */
  beyondTolerance: number;
  byteIdentical: boolean;
}

/** Scores the published judgments with the published banks and compares with the published TSV. */
export function compareWithAutoArgue(dir: string): ParityOutcome {
  const assets = join(dir, 'assets');
  const { rows } = scoreInputs({
    judgments: [
      {
        file: 'example-report.judgments.jsonl',
        text: readFileSync(join(assets, 'example-report.judgments.jsonl'), 'utf8'),
      },
    ],
    banks: readNuggetBanks(join(assets, 'example-nuggets')),
  });
  const ours = formatArgueTsv(rows);
  const published = readFileSync(join(assets, 'example-report.scores.tsv'), 'utf8');
  const a = parseArgueTsv(ours, 'ours');
  const b = parseArgueTsv(published, 'example-report.scores.tsv');
  let sameKeys = 0;
  let maxAbsDiff = 0;
  let beyondTolerance = 0;
  b.forEach((row, i) => {
    const mine = a[i];
    if (!mine || mine.runId !== row.runId || mine.requestId !== row.requestId || mine.metric !== row.metric) {
      beyondTolerance++;
      return;
    }
    sameKeys++;
    const d = Math.abs(mine.value - row.value);
    maxAbsDiff = Math.max(maxAbsDiff, d);
    if (!(d <= 1e-9)) beyondTolerance++;
  });
  return {
    rows: b.length,
    sameKeys,
    maxAbsDiff,
    beyondTolerance: beyondTolerance + Math.max(0, a.length - b.length),
    byteIdentical: ours === published,
  };
}
