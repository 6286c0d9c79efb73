import { CitegeistError, parseManifest, quoteValue } from '../../core/index.js';
import type { JudgeCard } from './judge-card.js';

/**
 * Reads a judge card written by `meta-eval judge --out` (its manifest is validated like a run
 * file's); a file that is not one is INVALID_INPUT naming it.
 */
export function readJudgeCard(text: string, path: string): JudgeCard {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new CitegeistError(
      'INVALID_INPUT',
      `${path} is not JSON.`,
      'Give the file `meta-eval judge --out` wrote.',
    );
  }
  const card = value as Partial<JudgeCard>;
  if (!card || typeof card !== 'object' || !card.manifest || !card.measures || !card.judge) {
    throw new CitegeistError(
      'INVALID_INPUT',
      `${path} is not a judge card.`,
      'Give the file `meta-eval judge --out` wrote.',
    );
  }
  const manifest = parseManifest(card.manifest, path);
  if (manifest.kind !== 'judge-card') {
    throw new CitegeistError(
      'INVALID_INPUT',
      `${path} holds a ${manifest.kind} manifest, not a judge card's.`,
      'Give the file `meta-eval judge --out` wrote.',
    );
  }
  return { ...(card as JudgeCard), manifest };
}

/** The judge a judged number comes from: its model id and prompt version (null: the judge has no prompt). */
export interface CardJudge {
  model: string;
  promptVersion: string | null;
}

/**
 * Why a card does not certify this judge: another model, or another prompt version (empty when it
 * does). The one rule `checkJudgeCard` and the workspace search (`cardForJudge`) both apply.
 */
export function cardMismatch(card: JudgeCard, judge: CardJudge): string[] {
  const problems: string[] = [];
  if (card.judge.model !== judge.model)
    problems.push(`judge ${quoteValue(card.judge.model)}, not ${quoteValue(judge.model)}`);
  if (judge.promptVersion !== null && card.judge.prompt_version !== judge.promptVersion) {
    problems.push(
      `prompt version ${quoteValue(card.judge.prompt_version)}, not ${quoteValue(judge.promptVersion)}`,
    );
  }
  return problems;
}

/**
 * Checks that a card certifies this judge: the same model and prompt version. A changed prompt
 * invalidates the card (JUDGE_CARD_STALE), since agreement measured with one prompt says nothing
 * certain about another.
 */
export function checkJudgeCard(card: JudgeCard, judge: CardJudge, path: string): void {
  const problems = cardMismatch(card, judge);
  if (problems.length > 0) {
    throw new CitegeistError(
      'JUDGE_CARD_STALE',
      `${path} was made for ${problems.join(' and ')}: it does not certify this judge.`,
      `Make a card for this judge: \`citegeist meta-eval judge --set ${card.set.name} --judge ${judge.model}\`.`,
    );
  }
}
