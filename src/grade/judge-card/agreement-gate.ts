import { CitegeistError, quoteValue } from '../../core/index.js';
import type { BootstrapInterval } from '../../stats/index.js';
import { type CardJudge, cardMismatch, checkJudgeCard } from './card-file.js';
import {
  type CardChoice,
  type CardSearch,
  cardForJudge,
  givenCard,
  newestCard,
  readGivenCard,
  type WorkspaceCards,
  workspaceCards,
} from './find-card.js';
import { headlineAgreement } from './headline-agreement.js';
import { cardSummaryLine, MEASURE_NAMES } from './render-card.js';

/** A judge of shown numbers: model and prompt version, and what it judged (for the reader). */
export interface JudgedBy extends CardJudge {
  /** e.g. `rubric judge (factual accuracy, completeness)`, `VETSCORE verifier`. */
  what: string;
  /** The metrics whose values this judge made (e.g. factual_accuracy, completeness), when known. */
  metrics?: readonly string[];
}

/** How a judged number's card is shown in `--json` output and in the HTML report. */
export interface CardNote {
  what: string;
  judge: string;
  prompt_version: string | null;
  /** The card's path, null when none was found. */
  card: string | null;
  /** true when the card was found in the workspace rather than given with --judge-card. */
  found: boolean;
  set: string | null;
  /** The headline measure (`kappa`, `alpha`, `spearman`) and its name, null without a card. */
  measure: string | null;
  measure_name: string | null;
  agreement: BootstrapInterval | null;
  ceiling: BootstrapInterval | null;
  /** The one line shown beside the numbers in text output. */
  line: string;
  /** Where the workspace was searched when no card was found. */
  searched: string[];
  /**
   * Under `--require-agreement` in a command that shows numbers rather than makes them
   * (`leaderboard`, `report`): why the judge is not certified, else null. Its metrics are shown
   * but not ranked.
   */
  uncertified: string | null;
  /** The metrics this judge made (`JudgedBy.metrics`), empty when not known. */
  metrics: string[];
}

/** The note shown beside a judge's numbers: its card's agreement and ceiling, or that it has none. */
export function cardNote(choice: CardChoice, judge: JudgedBy): CardNote {
  const base = {
    what: judge.what,
    judge: judge.model,
    prompt_version: judge.promptVersion,
    uncertified: null,
    metrics: [...(judge.metrics ?? [])],
  };
  if (!choice.card) {
    return {
      ...base,
      card: null,
      found: false,
      set: null,
      measure: null,
      measure_name: null,
      agreement: null,
      ceiling: null,
      line: `${judge.what}: no judge card for ${judge.model}${judge.promptVersion ? ` (prompt ${judge.promptVersion})` : ''} in ${choice.searched.join(', ') || 'the workspace'}: its agreement with people is not measured`,
      searched: choice.searched,
    };
  }
  const head = headlineAgreement(choice.card);
  const set = choice.card.set;
  return {
    ...base,
    card: choice.path,
    found: choice.found,
    set: `${set.name}${set.dimension ? `/${set.dimension}` : ''}`,
    measure: head?.measure ?? null,
    measure_name: head ? MEASURE_NAMES[head.measure] : null,
    agreement: head?.judge ?? null,
    ceiling: head?.ceiling ?? null,
    line: `${judge.what}: ${cardSummaryLine(choice.card)} (${choice.found ? 'found: ' : ''}${choice.path})`,
    searched: [],
  };
}

/**
 * Why `--require-agreement min` does not certify a judge, or null when it does (or `min` is
 * undefined): it has no card, or its card's headline agreement (`headlineAgreement`: κ, else α,
 * else Spearman ρ; the point estimate, not the interval's lower bound) is below `min`.
 */
export function uncertifiedBecause(
  choice: CardChoice,
  judge: JudgedBy,
  min: number | undefined,
): string | null {
  if (min === undefined) return null;
  const who = `the ${judge.what} ${quoteValue(judge.model)}${judge.promptVersion ? ` (prompt ${judge.promptVersion})` : ''}`;
  if (!choice.card)
    return `--require-agreement ${min}: no judge card certifies ${who} (searched ${choice.searched.join(', ') || 'nothing'}).`;
  const head = headlineAgreement(choice.card);
  if (!head) return `--require-agreement ${min}: ${choice.path} has no κ, α or Spearman ρ for ${who}.`;
  if (head.judge.estimate < min)
    return `--require-agreement ${min}: ${choice.path} gives ${who} ${MEASURE_NAMES[head.measure]} ${head.judge.estimate.toFixed(3)} with people on ${choice.card.set.name}, below ${min}.`;
  return null;
}

/** `--require-agreement min` where numbers are made: refuses (JUDGE_UNCERTIFIED) an uncertified judge. */
export function requireAgreement(choice: CardChoice, judge: JudgedBy, min: number | undefined): void {
  const why = uncertifiedBecause(choice, judge, min);
  if (why === null) return;
  throw new CitegeistError(
    'JUDGE_UNCERTIFIED',
    why,
    `Make a card for it: \`citegeist meta-eval judge --set <set> --judge ${judge.model} --out judge-cards/<name>-card.json\`, pass one with --judge-card, or lower --require-agreement.`,
  );
}

/**
 * The card of a judge whose numbers a command is about to make or show: given with --judge-card
 * (checked: JUDGE_CARD_STALE) or found in the workspace (`cardForJudge`), refused under
 * `--require-agreement` (`requireAgreement`), and the note to show beside the numbers. Commands
 * call this before any model call, so a refused judge costs nothing.
 */
export function certifyJudge(judge: JudgedBy, search: CardSearch, min: number | undefined): CardNote {
  const choice = cardForJudge(judge, search);
  requireAgreement(choice, judge, min);
  return cardNote(choice, judge);
}

/**
 * `certifyJudge` for the several judges of a comparison (leaderboard, report): each judge gets the
 * given card that certifies it, else the one found in the workspace. A given card that certifies
 * none of them is refused (JUDGE_CARD_STALE against the first), as a card given for one judge is.
 */
export function certifyJudges(
  judges: readonly JudgedBy[],
  search: Omit<CardSearch, 'given'> & { given: readonly string[] },
  min: number | undefined,
  /**
   * 'refuse' (commands that make judged numbers); 'mark' (commands that show them: `leaderboard`,
   * `report`): an uncertified judge's note says why, and its metrics are shown, not ranked.
   */
  mode: 'refuse' | 'mark' = 'refuse',
): CardNote[] {
  const given = search.given.map((path) => readGivenCard(search.cwd, path));
  for (const g of given) {
    if (judges.length > 0 && judges.every((j) => cardMismatch(g.card, j).length > 0))
      checkJudgeCard(g.card, judges[0]!, g.path);
  }
  const { given: _all, ...where } = search;
  // The workspace is listed and read once, and only when a judge has no given card.
  let workspace: WorkspaceCards | undefined;
  return judges.map((judge) => {
    const mine = given.find((g) => cardMismatch(g.card, judge).length === 0);
    if (!mine) workspace ??= workspaceCards(where);
    const choice = mine ? givenCard(judge, mine) : newestCard(judge, workspace!);
    if (mode === 'refuse') requireAgreement(choice, judge, min);
    return { ...cardNote(choice, judge), uncertified: uncertifiedBecause(choice, judge, min) };
  });
}

/** The metrics of judges not certified under `--require-agreement` (`certifyJudges` in 'mark' mode). */
export function uncertifiedMetrics(notes: readonly CardNote[]): Set<string> {
  return new Set(notes.filter((n) => n.uncertified !== null).flatMap((n) => n.metrics));
}

/** The line `leaderboard` prints for a judge not certified under --require-agreement. */
export function uncertifiedLine(note: CardNote): string {
  return `UNCERTIFIED: ${note.metrics.join(', ') || note.what} printed, not ranked (left out of the comparison): ${note.uncertified}`;
}
