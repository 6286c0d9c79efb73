import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedDataPath } from '../../testing/index.js';
import { argueVizDir, compareWithAutoArgue } from './auto-argue-parity.js';

// Auto-ARGUE's published judgments, banks and scores (hltcoe/argue-viz @ ada21228) carry no licence,
// so they are read from a checkout: set ARGUE_VIZ_DIR (see auto-argue-parity.ts). Skipped otherwise.
const dir = argueVizDir(process.env, sharedDataPath());

describe("scoring Auto-ARGUE's published judgments", () => {
  it('reproduces example-report.scores.tsv: every value to 1e-9, names and order, byte for byte', (ctx) => {
    if (!dir)
      ctx.skip(
        "needs Auto-ARGUE's published example: ARGUE_VIZ_DIR=<a checkout of hltcoe/argue-viz> (no licence, so neither bundled nor in ../shared/data)",
      );
    const outcome = compareWithAutoArgue(dir!);
    expect(outcome.rows).toBe(369);
    expect(outcome.sameKeys).toBe(outcome.rows);
    expect(outcome.beyondTolerance).toBe(0);
    expect(outcome.maxAbsDiff).toBeLessThanOrEqual(1e-9);
    expect(outcome.byteIdentical).toBe(true);
  });

  it('the comparison runs on a folder laid out like argue-viz, and notices a changed value', () => {
    const fixtures = join(import.meta.dirname, '__fixtures__');
    const root = mkdtempSync(join(tmpdir(), 'argue-viz-'));
    mkdirSync(join(root, 'assets'));
    cpSync(join(fixtures, 'nuggets'), join(root, 'assets', 'example-nuggets'), { recursive: true });
    cpSync(join(fixtures, 'judgments.jsonl'), join(root, 'assets', 'example-report.judgments.jsonl'));
    cpSync(join(fixtures, 'expected.scores.tsv'), join(root, 'assets', 'example-report.scores.tsv'));
    expect(argueVizDir({ ARGUE_VIZ_DIR: root }, '/nowhere')).toBe(root);
    expect(compareWithAutoArgue(root)).toEqual({
      rows: 62,
      sameKeys: 62,
      maxAbsDiff: 0,
      beyondTolerance: 0,
      byteIdentical: true,
    });
    const tsv = join(root, 'assets', 'example-report.scores.tsv');
    writeFileSync(tsv, `run_id\trequest_id\tmetric\tvalue\nfixture-run\tall\tsentences\t8.0\n`);
    expect(compareWithAutoArgue(tsv.replace(/\/assets\/.*$/, ''))).toMatchObject({
      rows: 1,
      sameKeys: 1,
      maxAbsDiff: 1,
      beyondTolerance: 62,
    });
  });
});
