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
  if (search.given !== undefined) return givenCard(judge, readGivenCard(search.cwd, search.given));
  return newestCard(judge, workspaceCards(search));
}

/** A card given with --judge-card, read once (several judges may be checked against it). */
export interface GivenCard {
  card: JudgeCard;
  /** The path as given. */
  path: string;
}

/** Reads the card given with --judge-card (`path` resolves against `cwd`). */
export function readGivenCard(cwd: string, path: string): GivenCard {
  return { card: readJudgeCard(readTextFile(resolve(cwd, path), 'judge card'), path), path };
}

/** A given card's choice for a judge: JUDGE_CARD_STALE when it does not certify the judge. */
export function givenCard(judge: CardJudge, given: GivenCard): CardChoice {
  checkJudgeCard(given.card, judge, given.path);
  return { card: given.card, path: given.path, found: false };
}

/** The cards of the workspace a search reads, read once for every judge it is asked about. */
export interface WorkspaceCards {
  cwd: string;
  /** The folders searched, relative to `cwd`. */
  searched: string[];
  /** Each readable card, in search order. */
  cards: { card: JudgeCard; path: string }[];
}

/** Lists and reads the workspace's cards: the `near` folders, then `<cwd>/judge-cards/`, then `<cwd>`. */
export function workspaceCards(search: Omit<CardSearch, 'given'>): WorkspaceCards {
  const dirs = [
    ...new Set([...(search.near ?? []), join(search.cwd, CARDS_FOLDER), search.cwd].map((d) => resolve(d))),
  ];
  const searched: string[] = [];
  const cards: WorkspaceCards['cards'] = [];
  for (const dir of dirs) {
    searched.push(relative(search.cwd, dir) || '.');
    for (const name of cardFiles(dir) ?? []) {
      const path = join(dir, name);
      const card = tryReadCard(path);
      if (card) cards.push({ card, path });
    }
  }
  return { cwd: search.cwd, searched, cards };
}

/** The newest (manifest `created_at`, then first found) of the workspace's cards for this judge. */
export function newestCard(judge: CardJudge, workspace: WorkspaceCards): CardChoice {
  let best: { card: JudgeCard; path: string } | null = null;
  for (const c of workspace.cards) {
    if (cardMismatch(c.card, judge).length > 0) continue;
    if (!best || c.card.manifest.created_at > best.card.manifest.created_at) best = c;
  }
  return best
    ? { card: best.card, path: relative(workspace.cwd, best.path) || best.path, found: true }
    : { card: null, searched: [...workspace.searched] };
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
