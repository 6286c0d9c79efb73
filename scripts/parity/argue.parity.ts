/**
 * ARGUE report evaluation against Auto-ARGUE and the nugget-bank reference library:
 * - Auto-ARGUE's published scores TSV from its published judgments (needs a checkout of
 *   hltcoe/argue-viz: `ARGUE_VIZ_DIR`, see src/grade/argue/auto-argue-parity.ts; skipped with a
 *   note when absent, since its files carry no licence and are not in this repository);
 * - the TREC 2025 RAGTIME appendix figures of run hltime-lg.jina from their counts;
 * - the DoGMaTiQ nugget banks (v3, written by the reference library) read and written back.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { nuggetBankText, readNuggetFile } from '../../src/formats/index.js';
import { allValues, topicValues } from '../../src/grade/argue/argue-metrics.js';
import {
  ARGUE_VIZ_COMMIT,
  argueVizDir,
  compareWithAutoArgue,
} from '../../src/grade/argue/auto-argue-parity.js';
import { emptyCounts } from '../../src/grade/argue/count-report.js';
import { sharedDataPath } from '../../src/testing/index.js';
import type { ParityCheck } from './parity-check.js';

function autoArgue(): ParityCheck[] {
  const dir = argueVizDir(process.env, sharedDataPath());
  if (!dir) {
    console.log(
      `argue parity: Auto-ARGUE's published judgments not found; clone hltcoe/argue-viz @ ${ARGUE_VIZ_COMMIT.slice(0, 8)} and set ARGUE_VIZ_DIR to run that comparison`,
    );
    return [];
  }
  const o = compareWithAutoArgue(dir);
  return [
    {
      reference: `Auto-ARGUE (hltcoe/argue-viz @ ${ARGUE_VIZ_COMMIT.slice(0, 8)})`,
      compared:
        '`reports score` on its published judgments and nugget banks vs its published scores TSV: names, order, every value (tolerance 1e-9) and bytes',
      files:
        'assets/example-report.judgments.jsonl, assets/example-nuggets/*.v3.json, assets/example-report.scores.tsv',
      result: `${o.sameKeys} of ${o.rows} rows in order, max |Δ| ${o.maxAbsDiff}, ${o.beyondTolerance} beyond 1e-9, ${o.byteIdentical ? 'byte-identical' : 'bytes differ'}`,
      pass: o.sameKeys === o.rows && o.beyondTolerance === 0,
    },
  ];
}

function ragtimeAppendix(): ParityCheck {
  // Published counts of run hltime-lg.jina (TREC 2025 RAGTIME appendix) and its figures.
  const counts = {
    ...emptyCounts(0, 0),
    sentencesWithCitationsOrRequiring: 245,
    correctlyCitedSentences: 171,
    citations: 267,
    relevantCitations: 115,
    supportingCitations: 190,
    nuggets: 815,
    nuggetsWeighted: 815,
    correctNuggets: 268,
    correctNuggetsWeighted: 268,
  };
  const all = allValues([topicValues(counts)]);
  const checks = [
    all.sentence_support_micro === 171 / 245,
    all.citation_relevance_micro === 115 / 267,
    all.citation_support_micro === 190 / 267,
    all.nugget_coverage_micro === 268 / 815,
    all.f1_micro!.toFixed(5) === '0.44705',
  ];
  return {
    reference: 'TREC 2025 RAGTIME appendix (Auto-ARGUE), run hltime-lg.jina',
    compared:
      'micro sentence support, citation relevance, citation support, nugget coverage and f1_micro (5 decimals) from the published counts',
    files: 'the appendix counts (171/245, 115/267, 190/267, 268/815)',
    result: `${checks.filter(Boolean).length} of ${checks.length} equal (f1_micro ${all.f1_micro})`,
    pass: checks.every(Boolean),
  };
}

function dogmatiqBanks(): ParityCheck[] {
  const dir = sharedDataPath('nuggets');
  if (!existsSync(dir)) return [];
  const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  const same = files.filter(
    (f) => nuggetBankText(readNuggetFile(join(dir, f))[0]!.bank) === readFileSync(join(dir, f), 'utf8'),
  );
  return [
    {
      reference:
        'nugget bank library (hltcoe/argue-viz src/nugget_data.py; DoGMaTiQ banks, manestay/dogmatiq @ 2d0c8e70)',
      compared: 'v3 nugget banks read and written back (json.dump indent=2), byte for byte',
      files: files.join(', '),
      result: `${same.length} of ${files.length} byte-identical`,
      pass: same.length === files.length,
    },
  ];
}

export async function run(): Promise<ParityCheck[]> {
  return [...autoArgue(), ragtimeAppendix(), ...dogmatiqBanks()];
}
