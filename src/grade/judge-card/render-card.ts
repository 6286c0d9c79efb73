import type { AgreementMeasureId } from '../../stats/index.js';
import { formatScore, renderTable } from '../../text/index.js';
import { headlineAgreement } from './headline-agreement.js';
import type { JudgeCard, MeasureTable } from './judge-card.js';

export const MEASURE_NAMES: Record<AgreementMeasureId, string> = {
  accuracy: 'accuracy',
  kappa: "Cohen's κ",
  kappa_linear: 'κ linear',
  kappa_quadratic: 'κ quadratic',
  alpha: "Krippendorff's α",
  pearson: 'Pearson r',
  spearman: 'Spearman ρ',
  kendall_tau_b: 'Kendall τ-b',
};

const ci = (m: MeasureTable, id: AgreementMeasureId) => {
  const v = m[id];
  if (!v || v.estimate === null) return 'n/a';
  return `${formatScore(v.estimate)} [${formatScore(v.lower)}, ${formatScore(v.upper)}]`;
};

/** The card as text: judge vs people beside people vs people, then the confusion matrix and groups. */
export function renderJudgeCard(card: JudgeCard): string {
  const ids = Object.keys(card.measures) as AgreementMeasureId[];
  const first = card.measures[ids[0]!];
  const ceiling = card.ceiling.available ? card.ceiling.measures : null;
  const lines = [
    `judge card: ${card.judge.model} (${card.judge.kind}, prompt ${card.judge.prompt_version ?? 'unknown'}) on ${card.set.name}${card.set.dimension ? ` / ${card.set.dimension}` : ''}`,
    `set: ${card.set.items} items, ${card.set.scale.kind} scale; sha256 ${card.set.sha256.slice(0, 12)}…; licence: ${card.set.licence}`,
    `judged ${card.counts.judged}, judge failures ${card.counts.failed}, not judged ${card.counts.not_judged}; ${card.counts.pairs} judge–human pairs (reference: ${card.reference === 'gold' ? 'the gold / only label' : 'each human label'})${card.judge.continuous ? '; judge values are continuous scores' : ''}`,
    `intervals: ${Math.round((first?.confidence ?? 0.95) * 100)}% percentile bootstrap, ${first?.iterations ?? 0} resamples, seed ${first?.seed ?? 0}`,
    '',
    renderTable(
      [
        { header: 'measure' },
        { header: 'judge vs people', align: 'right' },
        { header: 'people vs people (ceiling)', align: 'right' },
      ],
      ids.map((id) => [MEASURE_NAMES[id], ci(card.measures, id), ceiling ? ci(ceiling, id) : 'n/a']),
    ),
  ];
  if (card.ceiling.available) {
    lines.push(
      `ceiling: ${card.ceiling.pairs} annotator pairs over ${card.ceiling.annotators} annotators; α over all annotators ${formatScore(card.ceiling.alpha_all_annotators)}`,
    );
  } else lines.push(`ceiling: not available (${card.ceiling.reason})`);
  const swap = card.probes.position_swap;
  if (swap) {
    lines.push(
      `position swap: ${swap.flipped} of ${swap.pairs} pairs judged differently when the answers swapped places, rate ${formatScore(swap.rate.estimate)} [${formatScore(swap.rate.lower)}, ${formatScore(swap.rate.upper)}] (inconsistent pairs count as ties)`,
    );
  }
  const pad = card.probes.verbosity;
  if (pad) {
    lines.push(
      `verbosity: ${pad.scores} answers padded with neutral text of the same topic moved from ${formatScore(pad.mean_original)} to ${formatScore(pad.mean_padded)}; shift ${formatScore(pad.shift.estimate)} [${formatScore(pad.shift.lower)}, ${formatScore(pad.shift.upper)}]`,
    );
  }
  const self = card.probes.self_preference;
  if (self) {
    lines.push(
      `self-preference (${self.family}): on ${self.pairs} pairs with one ${self.family} answer the judge favours it by ${formatScore(self.judge_mean)}, people by ${formatScore(self.human_mean)}; bias ${formatScore(self.bias.estimate)} [${formatScore(self.bias.lower)}, ${formatScore(self.bias.upper)}] (scale units)`,
    );
  }
  if (card.confusion) {
    lines.push('', 'confusion (rows: people, columns: judge)');
    lines.push(
      renderTable(
        [{ header: '' }, ...card.confusion.categories.map((c) => ({ header: c, align: 'right' as const }))],
        card.confusion.counts.map((row, i) => [card.confusion!.categories[i]!, ...row.map(String)]),
      ),
    );
    lines.push(
      '',
      renderTable(
        [
          { header: 'category' },
          { header: 'people', align: 'right' },
          { header: 'judge', align: 'right' },
          { header: 'recall', align: 'right' },
          { header: 'precision', align: 'right' },
        ],
        card.per_category.map((p) => [
          p.category,
          String(p.reference),
          String(p.judge),
          formatScore(p.recall),
          formatScore(p.precision),
        ]),
      ),
    );
  }
  if (card.by_group.length > 0) {
    const shown = ids.slice(0, 3);
    lines.push('', 'by group');
    lines.push(
      renderTable(
        [
          { header: 'group' },
          { header: 'pairs', align: 'right' },
          ...shown.map((id) => ({ header: MEASURE_NAMES[id], align: 'right' as const })),
        ],
        card.by_group.map((g) => [g.group, String(g.pairs), ...shown.map((id) => ci(g.measures, id))]),
      ),
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * One line for a judged number's output: the card's set, its headline agreement (κ, else α, else
 * Spearman: `headlineAgreement`) with the interval, and the human ceiling of the same measure.
 */
export function cardSummaryLine(card: JudgeCard): string {
  const head = headlineAgreement(card);
  const id = head?.measure;
  const name = id ? MEASURE_NAMES[id] : 'agreement';
  const ceiling = card.ceiling.available && id ? ci(card.ceiling.measures, id) : 'n/a (one label per item)';
  return `judge card: ${card.judge.model} on ${card.set.name}${card.set.dimension ? `/${card.set.dimension}` : ''} (${card.counts.judged} items): ${name} ${id ? ci(card.measures, id) : 'n/a'}; people vs people ${ceiling}`;
}
