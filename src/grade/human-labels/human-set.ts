import { CitegeistError, quoteValue } from '../../core/index.js';
import type { MeasurementLevel } from '../../stats/index.js';

/**
 * One format for human judgments, whatever set they come from: items with the inputs a judge sees,
 * one or more human labels per item (with the annotator's id where the set has one), an optional
 * aggregated gold label, and the scale the labels are on. Readers for the public sets are in this
 * folder (`check-covid.ts`, `ragchecker.ts`, `crowdrag25.ts`, `alce-utility.ts`).
 */
export type ScaleKind = 'binary' | 'nominal' | 'ordinal' | 'interval' | 'preference';

export interface ScaleCategory {
  /** The number a label is stored as; ordered scales are ordered by it. */
  code: number;
  /** The word a file may use instead of the code (`SUPPORT`, `a`, …). */
  name: string;
}

export interface LabelScale {
  kind: ScaleKind;
  /** Binary, nominal, ordinal and preference scales: every allowed label, in order. */
  categories?: ScaleCategory[];
  /** Interval scales: the range of allowed values. */
  min?: number;
  max?: number;
  /** What the labels mean (for preferences: what a positive value prefers). */
  meaning: string;
}

export interface HumanLabel {
  /** The annotator's id, or a positional id (`annotator-1`) where the set gives only the order. */
  annotator: string;
  value: number;
}

export interface HumanItem {
  id: string;
  /** What a judge is shown: claim and evidence, question and answers, … (set-specific keys). */
  inputs: Record<string, string | string[] | null>;
  labels: HumanLabel[];
  /** The set's own aggregate of the labels (e.g. CrowdRAG's MACE gold), when it ships one. */
  gold?: number;
  /** A category of the item for agreement by category (data set, claim type, pair type). */
  group?: string;
}

export interface HumanSet {
  /** `check-covid`, `ragchecker`, `crowdrag25`, `alce-utility`, or a file's name. */
  name: string;
  /** The judged aspect where a set has several (RAGChecker's `overall`, CrowdRAG's dimensions). */
  dimension: string | null;
  scale: LabelScale;
  items: HumanItem[];
  /** sha256 over the files read (name and content hash), for the card's manifest. */
  sha256: string;
  licence: string;
  source: string;
}

/** The α level that fits a scale: nominal for binary and nominal, ordinal for ordered categories. */
export function alphaLevel(scale: LabelScale): MeasurementLevel {
  if (scale.kind === 'binary' || scale.kind === 'nominal') return 'nominal';
  if (scale.kind === 'interval') return 'interval';
  return 'ordinal';
}

/** The category codes in order, or undefined for an interval scale. */
export function categoryCodes(scale: LabelScale): number[] | undefined {
  return scale.categories?.map((c) => c.code);
}

/**
 * Reads one label against the scale: a category's code or name (case-insensitive), or a number in
 * an interval scale's range. `where` names the file and line for the error.
 */
export function parseLabel(scale: LabelScale, raw: unknown, where: string): number {
  if (scale.categories) {
    const hit = scale.categories.find(
      (c) =>
        (typeof raw === 'number' && raw === c.code) ||
        (typeof raw === 'string' &&
          (raw.trim().toLowerCase() === c.name.toLowerCase() || raw.trim() === String(c.code))),
    );
    if (hit) return hit.code;
  } else if (typeof raw === 'number' || (typeof raw === 'string' && raw.trim() !== '')) {
    const value = Number(raw);
    if (Number.isFinite(value) && value >= (scale.min ?? -Infinity) && value <= (scale.max ?? Infinity))
      return value;
  }
  throw new CitegeistError(
    'HUMAN_LABEL_OUT_OF_SCALE',
    `${where}: label ${quoteValue(raw)} is not on the ${scale.kind} scale (${describeScale(scale)}).`,
    'Write one of the scale’s labels (by code or name), or pick the set and dimension the labels belong to.',
  );
}

export function describeScale(scale: LabelScale): string {
  if (scale.categories) return scale.categories.map((c) => `${c.code}=${c.name}`).join(', ');
  return `${scale.min ?? '−∞'} … ${scale.max ?? '∞'}`;
}
