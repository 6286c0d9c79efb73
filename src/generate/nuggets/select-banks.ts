import { basename, join } from 'node:path';
import { CitegeistError } from '../../core/index.js';
import {
  bankQueryId,
  isQuestion,
  type LoadedBank,
  nuggetEntries,
  writeNuggetBankFile,
} from '../../formats/index.js';
import { QUALITY_FEATURES, qualityFeatures } from './quality-features.js';
import { ResultFolder } from './result-folder.js';
import type { SelectMethod } from './select-nuggets.js';
import { type SelectOptions, selectNuggets } from './select-nuggets.js';
import { loadSelector, type Selector, type TrainingGroup, trainSelector } from './selector.js';

/** How a selection was made, beside the selected banks (`select.meta.json`). */
export interface SelectionMade {
  version: string;
  createdAt: string;
  /** The selector file as given, and its hash. */
  selector?: { path: string; sha256: string | undefined };
  inputsSha256: Record<string, string>;
}

/**
 * Selects the top nuggets of every bank (`nuggets select`), then writes them into `outDir` as a
 * result folder under the same file names with how they were made. Every bank is selected before
 * any is written: a bank that cannot be ranked stops it with the folder as it was. Returns the
 * record written (`banks`: what each bank kept).
 */
export function selectNuggetBanks(
  banks: readonly { file: string; loaded: LoadedBank }[],
  outDir: string,
  options: SelectOptions & { topK: number; maxMostCommon: number; seed: number; keepSubNuggets: boolean },
  made: SelectionMade,
) {
  const reports = banks.map(({ file, loaded }) => ({
    request: bankQueryId(loaded.bank),
    file: basename(file),
    ...selectNuggets(loaded.bank, options),
  }));
  const files = banks.map((b) => basename(b.file));
  const meta = {
    tool: 'citegeist',
    version: made.version,
    created_at: made.createdAt,
    method: `dogmatiq-select-${options.method}`,
    top_k: options.topK,
    ...(options.method === 'hybrid' ? { max_most_common: options.maxMostCommon } : {}),
    ...(options.method === 'sample' ? { seed: options.seed } : {}),
    keep_sub_nuggets: options.keepSubNuggets,
    ...(made.selector ? { selector: made.selector.path, selector_sha256: made.selector.sha256 } : {}),
    inputs_sha256: made.inputsSha256,
    banks: reports,
  };
  const folder = ResultFolder.open(outDir, 'select', 'citegeist nuggets select');
  try {
    folder.begin(files);
    for (const { file, loaded } of banks) writeNuggetBankFile(join(outDir, basename(file)), loaded.bank);
    folder.finish(meta, files);
  } finally {
    folder.close();
  }
  return meta;
}

/** Feature rows per request of the question nuggets that have all 19 features; the rest counted. */
export function featureRows(banks: readonly { loaded: LoadedBank }[]) {
  const rows = new Map<string, number[][]>();
  let skipped = 0;
  for (const { loaded } of banks) {
    const id = bankQueryId(loaded.bank);
    for (const [, nugget] of nuggetEntries(loaded.bank)) {
      const features = isQuestion(nugget) ? qualityFeatures(nugget) : null;
      const row = features ? QUALITY_FEATURES.map((f) => features.get(f)) : [];
      if (!features || row.some((v) => v === undefined || !Number.isFinite(v))) {
        skipped++;
        continue;
      }
      rows.set(id, [...(rows.get(id) ?? []), row as number[]]);
    }
  }
  return { rows, skipped };
}

/** The training groups of `trainSelector`, per request in id order: positive and negative rows. */
export function trainingGroups(
  pos: ReturnType<typeof featureRows>,
  neg: ReturnType<typeof featureRows>,
): TrainingGroup[] {
  const ids = [...new Set([...pos.rows.keys(), ...neg.rows.keys()])].sort();
  return ids.map((requestId) => ({
    requestId,
    positives: pos.rows.get(requestId) ?? [],
    negatives: neg.rows.get(requestId) ?? [],
  }));
}

/**
 * Trains the criteria selector (`nuggets train-selector`) on scored banks: human nuggets positive,
 * generated ones negative. Nuggets without all 19 features are left out and counted (`skipped`,
 * also recorded in `trained`); with no scored positive or negative nugget it throws NUGGETS_NOT_SCORED.
 */
export function trainSelectorOnBanks(
  positive: readonly { loaded: LoadedBank }[],
  negative: readonly { loaded: LoadedBank }[],
  o: { c: number; trained: Record<string, unknown> },
): { selector: Selector; skipped: number } {
  const pos = featureRows(positive);
  const neg = featureRows(negative);
  const groups = trainingGroups(pos, neg);
  const skipped = pos.skipped + neg.skipped;
  if (!groups.some((g) => g.positives.length) || !groups.some((g) => g.negatives.length)) {
    throw new CitegeistError(
      'NUGGETS_NOT_SCORED',
      `Training needs scored positive and negative nuggets; found ${groups.reduce((n, g) => n + g.positives.length, 0)} positive and ${groups.reduce((n, g) => n + g.negatives.length, 0)} negative ones with all 19 features (${skipped} without).`,
      'Score both sets first with `citegeist nuggets score-quality --bank <dir> --model <spec>`.',
    );
  }
  const trained = { ...o.trained, skipped_without_features: skipped };
  return { selector: trainSelector(groups, QUALITY_FEATURES, { c: o.c, trained }), skipped };
}

/** The selector a method needs (criteria, hybrid), loaded from `path`; OPTION_REQUIRED without one. */
export function selectorFor(method: SelectMethod, path: string | undefined): Selector | undefined {
  if (method !== 'criteria' && method !== 'hybrid') return undefined;
  if (!path) {
    throw new CitegeistError(
      'OPTION_REQUIRED',
      `--method ${method} ranks nuggets with a trained selector, and no --selector was given (none ships with citegeist).`,
      'Train one with `citegeist nuggets train-selector --positive <human banks> --negative <generated banks> --out selector.json` (docs/nuggets.md) and pass --selector selector.json.',
    );
  }
  return loadSelector(path);
}
