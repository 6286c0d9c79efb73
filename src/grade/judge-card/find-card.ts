import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { CitegeistError } from '../../core/index.js';
import { readTextFile } from '../../io/index.js';
import { type CardJudge, cardMismatch, checkJudgeCard, readJudgeCard } from './card-file.js';
import type { JudgeCard } from './judge-card.js';

/** A judge card file's name ends in `card.json`: `card.json`, `gpt-card.json`, `rubric.card.json`. */
export const CARD_FILE_NAME = /card\.json$/i;

/** The folder of the workspace that holds cards for every command to find. */
export const CARDS_FOLDER = 'judge-cards';

/** The card a judged number is shown with, or where none was found. */
export type CardChoice =
  | {
      card: JudgeCard;
      /** The card's path as given or relative to the working folder. */
      path: string;
      /** true when found in the workspace, false when given with --judge-card. */
      found: boolean;
    }
  | { card: null; searched: string[] };

export interface CardSearch {
  /** The working folder (paths resolve against it; it and its `judge-cards/` are searched). */
  cwd: string;
  /** `--judge-card`: this card, checked against the judge (JUDGE_CARD_STALE when it is another's). */
  given?: string | undefined;
  /** Folders searched first: the folders of the command's output and input files. */
  near?: readonly string[];
}

/**
 * The judge card for a judge's numbers. A card given with --judge-card must certify the judge
 * (same model and prompt version; JUDGE_CARD_STALE otherwise). Without one, the workspace is
 * searched: the `near` folders, then `<cwd>/judge-cards/`, then `<cwd>`, for files named
 * `*card.json` that are judge cards of this model and prompt version; among several, the newest
 * (manifest `created_at`), then the first found. Files that are not cards, or another judge's, are
 * passed over. The search does not descend into sub-folders.
 */
export function cardForJudge(judge: CardJudge, search: CardSearch): CardChoice {
  if (search.given !== undefined) {
    const path = resolve(search.cwd, search.given);
    const card = readJudgeCard(readTextFile(path, 'judge card'), search.given);
    checkJudgeCard(card, judge, search.given);
    return { card, path: search.given, found: false };
  }
  const dirs = [
    ...new Set([...(search.near ?? []), join(search.cwd, CARDS_FOLDER), search.cwd].map((d) => resolve(d))),
  ];
  const searched: string[] = [];
  let best: { card: JudgeCard; path: string } | null = null;
  for (const dir of dirs) {
    searched.push(relative(search.cwd, dir) || '.');
    const names = cardFiles(dir);
    if (names === null) continue;
    for (const name of names) {
      const path = join(dir, name);
      const card = tryReadCard(path);
      if (!card || cardMismatch(card, judge).length > 0) continue;
      if (!best || card.manifest.created_at > best.card.manifest.created_at) best = { card, path };
    }
  }
  return best
    ? { card: best.card, path: relative(search.cwd, best.path) || best.path, found: true }
    : { card: null, searched };
}

/** The `*card.json` files of a folder, sorted; null when it is not a folder. */
function cardFiles(dir: string): string[] | null {
  try {
    return readdirSync(dir)
      .filter((n) => CARD_FILE_NAME.test(n) && statSync(join(dir, n)).isFile())
      .sort();
  } catch {
    return null;
  }
}

/** A card, or null when the file is not one (a search passes over what it cannot use). */
function tryReadCard(path: string): JudgeCard | null {
  try {
    return readJudgeCard(readTextFile(path, 'judge card'), path);
  } catch (e) {
    if (e instanceof CitegeistError) return null;
    throw e;
  }
}
