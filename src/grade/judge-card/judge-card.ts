import { createManifest, type RunManifest, sha256Hex } from '../../core/index.js';
import {
  AGREEMENT_MEASURES,
  type AgreementMeasureId,
  type AgreementSpec,
  type BootstrapInterval,
  bootstrapAgreement,
  bootstrapCI,
  categoryIndex,
  confusionOf,
  krippendorffAlphaOfUnits,
  pairTable,
  perCategoryOf,
} from '../../stats/index.js';
import {
  alphaLevel,
  categoryCodes,
  type HumanSet,
  type JudgeLabels,
  type LabelScale,
} from '../human-labels/index.js';
import type { VerbosityProbe } from './verbosity-probe.js';

/** Which human value a judge's label is compared with. */
export type CardReference = 'gold' | 'each';

/** The judge a card certifies: model (or tool), prompt version, and what produced the labels. */
export interface JudgeIdentity {
  /** `openai:gpt-4.1-mini`, `lexical`, `ragchecker`, or the labels file's name. */
  model: string;
  /** The judge prompt's version (cards are invalid for another version); null when unknown. */
  prompt_version: string | null;
  /** `vetscore-claim-support`, `rubric`, `pairwise`, `labels-file`, … */
  kind: string;
  /** The judge model's family (`openai`, `meta`, …), for the self-preference probe; null when unknown. */
  family?: string | null;
}

export interface CardOptions {
  reference?: CardReference;
  iterations?: number;
  seed?: number;
  confidence?: number;
  /** How the judged items were drawn (`--limit`), recorded in the manifest. */
  sample?: { limit: number | null; seed: number };
  /** A verbosity probe measured beside the run (`verbosityProbe`), shown on the card. */
  verbosity?: VerbosityProbe | null;
  version: string;
  now?: () => Date;
}

export type MeasureTable = Partial<Record<AgreementMeasureId, BootstrapInterval>>;

export interface JudgeCard {
  manifest: RunManifest;
  set: {
    name: string;
    dimension: string | null;
    scale: LabelScale;
    items: number;
    sha256: string;
    licence: string;
    source: string;
  };
  judge: JudgeIdentity & { continuous: boolean };
  /** Items the judge labelled and the set holds; judge failures; set items the judge did not label. */
  counts: { judged: number; failed: number; not_judged: number; pairs: number };
  reference: CardReference;
  measures: MeasureTable;
  /** Rows = the human reference, columns = the judge, over the scale's categories (null for scores). */
  confusion: { categories: string[]; counts: number[][] } | null;
  per_category: {
    category: string;
    reference: number;
    judge: number;
    both: number;
    recall: number | null;
    precision: number | null;
  }[];
  by_group: { group: string; pairs: number; measures: MeasureTable }[];
  /** The same measures between the annotators themselves: how close a second person comes. */
  ceiling: HumanCeiling;
  /** Bias probes measured on this run (position swap: pairs judged in both orders). */
  probes: {
    position_swap?: { pairs: number; flipped: number; rate: BootstrapInterval };
    /**
     * Pairs with exactly one answer from the judge's own model family: how much more the judge
     * prefers that answer than people do, in scale units (judge − people, positive = favours its
     * own family), with its interval.
     */
    self_preference?: {
      family: string;
      pairs: number;
      judge_mean: number;
      human_mean: number;
      bias: BootstrapInterval;
    };
    /** The same answers judged again padded with neutral text of the same topic: the score shift. */
    verbosity?: VerbosityProbe;
  };
}

export type HumanCeiling =
  | {
      available: true;
      /** Unordered pairs of labels given to the same item by two annotators. */
      pairs: number;
      annotators: number;
      measures: MeasureTable;
      /** Krippendorff's α over all annotators at once (the multi-rater form). */
      alpha_all_annotators: number | null;
      note: string;
    }
  | { available: false; reason: string };

/** The measures that fit a scale (correlations need order; κ and accuracy need categories). */
export function measuresFor(scale: LabelScale): AgreementMeasureId[] {
  if (scale.kind === 'binary' || scale.kind === 'nominal') return ['accuracy', 'kappa', 'alpha'];
  if (scale.kind === 'interval') return ['alpha', 'pearson', 'spearman', 'kendall_tau_b'];
  return [...AGREEMENT_MEASURES];
}

/**
 * The judge card: a judge's labels against a human set's, every measure of its scale with a
 * percentile bootstrap interval (seed stated), the confusion matrix and agreement per category and
 * per item group, and the human ceiling (the same measures between annotators). With `reference`
 * `gold` the judge is compared with the set's aggregate label (or its only label); with `each` it
 * is paired with every human label of the item (RAGChecker's protocol: 280 scores × 2 annotators
 * = 560 pairs).
 */
export function buildJudgeCard(
  set: HumanSet,
  judge: JudgeLabels,
  identity: JudgeIdentity,
  options: CardOptions,
): JudgeCard {
  const reference: CardReference =
    options.reference ??
    (set.items.every((i) => i.gold !== undefined || i.labels.length === 1) ? 'gold' : 'each');
  const boot = {
    iterations: options.iterations ?? 10_000,
    seed: options.seed ?? 0,
    confidence: options.confidence ?? 0.95,
  };
  const codes = categoryCodes(set.scale);
  const spec: AgreementSpec = {
    level: alphaLevel(set.scale),
    measures: measuresFor(set.scale),
    ...(judge.continuous || !codes ? {} : { categories: codes }),
  };
  const pairs = referencePairs(set, judge, reference);
  const table = pairTable(pairs.x, pairs.y);
  const names = set.scale.categories?.map((c) => c.name) ?? [];
  const cat = spec.categories ? categoryIndex(table, spec.categories) : null;
  const groups = [...new Set(pairs.group.filter((g): g is string => g !== undefined))].sort();
  const manifest = createManifest({
    kind: 'judge-card',
    defaultLabel: `${identity.model} on ${set.name}${set.dimension ? `/${set.dimension}` : ''}`,
    settings: {
      judge_model: identity.model,
      judge_kind: identity.kind,
      prompt_version: identity.prompt_version,
      set: set.name,
      dimension: set.dimension,
      reference,
      iterations: boot.iterations,
      seed: boot.seed,
      confidence: boot.confidence,
      limit: options.sample?.limit ?? null,
      sample_seed: options.sample?.seed ?? null,
      verbosity_probe: options.verbosity ? true : null,
    },
    inputs: {
      set: { sha256: set.sha256, items: set.items.length, licence: set.licence },
      labels: { sha256: labelsHash(judge), judged: judge.values.size, failed: judge.failed.length },
    },
    version: options.version,
    ...(options.now ? { now: options.now } : {}),
  });
  return {
    manifest,
    set: {
      name: set.name,
      dimension: set.dimension,
      scale: set.scale,
      items: set.items.length,
      sha256: set.sha256,
      licence: set.licence,
      source: set.source,
    },
    judge: { ...identity, continuous: judge.continuous },
    counts: {
      judged: judge.values.size,
      failed: judge.failed.length,
      not_judged: set.items.length - judge.values.size - judge.failed.length,
      pairs: pairs.x.length,
    },
    reference,
    measures: bootstrapAgreement(table, spec, boot),
    confusion: cat ? { categories: names, counts: confusionOf(table, cat) } : null,
    per_category: cat
      ? perCategoryOf(table, cat).map((p, i) => ({
          category: names[i]!,
          reference: p.reference,
          judge: p.rated,
          both: p.both,
          recall: p.recall,
          precision: p.precision,
        }))
      : [],
    by_group: groups.map((g) => {
      const keep = pairs.group.map((x) => x === g);
      const t = pairTable(
        pairs.x.filter((_, i) => keep[i]),
        pairs.y.filter((_, i) => keep[i]),
      );
      return { group: g, pairs: t.n, measures: bootstrapAgreement(t, spec, boot) };
    }),
    ceiling: humanCeiling(set, spec, boot),
    probes: {
      ...positionProbe(set, judge, boot),
      ...selfPreferenceProbe(set, judge, identity.family ?? null, boot),
      ...(options.verbosity ? { verbosity: options.verbosity } : {}),
    },
  };
}

/**
 * Self-preference: on pairs where exactly one answer comes from the judge's family, the judge's
 * preference for that answer (its value, sign turned so that positive favours it) minus people's
 * (the gold label, or the mean of the labels).
 */
function selfPreferenceProbe(
  set: HumanSet,
  judge: JudgeLabels,
  family: string | null,
  boot: { iterations: number; seed: number; confidence: number },
): JudgeCard['probes'] {
  if (!family || family === 'unknown') return {};
  const judged: number[] = [];
  const human: number[] = [];
  for (const item of set.items) {
    const value = judge.values.get(item.id);
    const own1 = item.inputs.family_1 === family;
    const own2 = item.inputs.family_2 === family;
    if (value === undefined || own1 === own2) continue;
    const sign = own2 ? 1 : -1;
    const people = item.gold ?? item.labels.reduce((s, l) => s + l.value, 0) / item.labels.length;
    judged.push(sign * value);
    human.push(sign * people);
  }
  if (judged.length === 0) return {};
  const diff = judged.map((v, i) => v - human[i]!);
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  return {
    self_preference: {
      family,
      pairs: diff.length,
      judge_mean: mean(judged),
      human_mean: mean(human),
      bias: bootstrapCI(diff, undefined, boot),
    },
  };
}

/** Share of pairs whose verdict changed when the answers swapped places, with its interval. */
function positionProbe(
  set: HumanSet,
  judge: JudgeLabels,
  boot: { iterations: number; seed: number; confidence: number },
): JudgeCard['probes'] {
  const ids = new Set(set.items.map((i) => i.id));
  const flags: number[] = [...judge.orders]
    .filter(([id]) => ids.has(id))
    .map(([, o]) => (o.first === o.second ? 0 : 1));
  if (flags.length === 0) return {};
  return {
    position_swap: {
      pairs: flags.length,
      flipped: flags.reduce((s, f) => s + f, 0),
      rate: bootstrapCI(flags, undefined, boot),
    },
  };
}

/** The (judge, human) pairs compared, with each pair's item group. */
function referencePairs(set: HumanSet, judge: JudgeLabels, reference: CardReference) {
  const x: number[] = [];
  const y: number[] = [];
  const group: (string | undefined)[] = [];
  for (const item of set.items) {
    const value = judge.values.get(item.id);
    if (value === undefined) continue;
    const humans =
      reference === 'gold'
        ? item.gold !== undefined
          ? [item.gold]
          : item.labels.length === 1
            ? [item.labels[0]!.value]
            : []
        : item.labels.map((l) => l.value);
    for (const h of humans) {
      x.push(value);
      y.push(h);
      group.push(item.group);
    }
  }
  return { x, y, group };
}

/**
 * Agreement between annotators: every unordered pair of labels two annotators gave the same item
 * (first-listed annotator as x), with the card's measures, and the multi-rater α over all of them.
 */
export function humanCeiling(
  set: HumanSet,
  spec: AgreementSpec,
  boot: { iterations: number; seed: number; confidence: number },
): HumanCeiling {
  const x: number[] = [];
  const y: number[] = [];
  for (const item of set.items) {
    for (let i = 0; i < item.labels.length; i++) {
      for (let j = i + 1; j < item.labels.length; j++) {
        x.push(item.labels[i]!.value);
        y.push(item.labels[j]!.value);
      }
    }
  }
  if (x.length === 0) {
    return {
      available: false,
      reason: `${set.name} has one human label per item, so agreement between people cannot be measured on it`,
    };
  }
  const annotators = new Set<string>();
  for (const item of set.items) for (const l of item.labels) annotators.add(l.annotator);
  return {
    available: true,
    pairs: x.length,
    annotators: annotators.size,
    measures: bootstrapAgreement(
      pairTable(x, y),
      { ...spec, categories: categoryCodes(set.scale) ?? [] },
      boot,
    ),
    alpha_all_annotators: krippendorffAlphaOfUnits(
      set.items.map((i) => i.labels.map((l) => l.value)),
      spec.level,
    ),
    note: 'pairs of labels on the same item are resampled as independent pairs; with more than two annotators per item the interval is narrower than a resampling of items would give',
  };
}

function labelsHash(judge: JudgeLabels): string {
  const lines = [...judge.values].map(([id, v]) => `${id}\t${v}`).sort();
  const failed = [...judge.failed].sort().map((id) => `${id}\tfailed`);
  return sha256Hex([...lines, ...failed].join('\n'));
}
