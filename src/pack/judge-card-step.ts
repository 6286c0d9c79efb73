/**
 * The replay step of a judge card made by running a judge on a human-judgment set
 * (`citegeist meta-eval judge --set S --judge M --out card.json`): the card's manifest names the
 * set, its dimension and hash, the judge and the bootstrap; the set's folder is found where the
 * command looks for it (`--data`: `./human-labels` or `$CITEGEIST_HUMAN_LABELS`) and checked
 * against the hash. A card made from a labels file (`--labels`) does not record the file, so it is
 * packed as it is, with a note.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CitegeistError } from '../core/index.js';
import { readHumanSet } from '../grade/index.js';

interface CardRead {
  manifest?: { kind?: unknown; created_at?: unknown; settings?: Record<string, unknown> };
  set?: { name?: unknown; sha256?: unknown; dimension?: unknown };
  judge?: { model?: unknown; kind?: unknown };
}

/** The card in `path` (a JSON file whose manifest is a judge card's), or null. */
function readCard(path: string): CardRead | null {
  if (!/\.json$/i.test(path) || statSync(path).size > 64 * 1024 ** 2) return null;
  try {
    const v = JSON.parse(readFileSync(path, 'utf8')) as CardRead;
    return v?.manifest?.kind === 'judge-card' ? v : null;
  } catch {
    return null;
  }
}

/** `--judge-kind` for a judge's kind (the card records the judge class's kind). */
function judgeKindFlag(kind: string): string | null {
  if (kind.endsWith('claim-support')) return 'claim-support';
  if (kind.endsWith('rubric')) return 'rubric';
  if (kind === 'pairwise') return 'pairwise';
  return null;
}

export type CardStep =
  | { replayable: true; argv: string[]; inputs: string[]; clock: string | null; models: boolean }
  | { replayable: false; note: string };

/** The step that re-derives the judge card `abs`, or null when `abs` is not a judge card. */
export function judgeCardStep(
  abs: string,
  cwd: string,
  rel: (abs: string) => string,
  humanLabels: string | undefined,
): CardStep | null {
  const card = readCard(abs);
  if (!card) return null;
  const s = card.manifest?.settings ?? {};
  const judgments = `${abs}.judgments.jsonl`;
  const kind = judgeKindFlag(String(s.judge_kind ?? ''));
  if (!existsSync(judgments) || kind === null || typeof s.judge_model !== 'string') {
    return {
      replayable: false,
      note: `${rel(abs)} is a judge card made from a labels file (or its judgments file ${rel(judgments)} is gone): the labels file is not recorded, so the card is packed as it is and not re-derived.`,
    };
  }
  const name = String(card.set?.name ?? s.set);
  const dimension = typeof s.dimension === 'string' ? s.dimension : undefined;
  const candidates = [resolve(cwd, 'human-labels'), ...(humanLabels ? [resolve(cwd, humanLabels)] : [])];
  const data = candidates.find((d) => {
    if (!existsSync(join(d, name))) return false;
    try {
      return readHumanSet(name, d, dimension).sha256 === card.set?.sha256;
    } catch {
      return false;
    }
  });
  if (!data) {
    throw new CitegeistError(
      'PACK_INPUT_MISSING',
      `${rel(abs)} was made on the human-judgment set ${name} (sha256 ${String(card.set?.sha256).slice(0, 12)}…), which is not in ${candidates.join(' or ')} with that content.`,
      'Run `citegeist pack` where the card was made, with the set where `meta-eval judge` found it (./human-labels or $CITEGEIST_HUMAN_LABELS).',
    );
  }
  const argv = ['meta-eval', 'judge', '--set', name, '--data', rel(data), '--judge', s.judge_model];
  if (dimension) argv.push('--dimension', dimension);
  argv.push('--judge-kind', kind, '--reference', String(s.reference));
  if (typeof s.limit === 'number') argv.push('--limit', String(s.limit));
  argv.push('--sample-seed', String(s.sample_seed ?? 0), '--iterations', String(s.iterations));
  argv.push('--seed', String(s.seed));
  if (s.verbosity_probe === true) argv.push('--probe-verbosity');
  return {
    replayable: true,
    argv,
    inputs: [join(data, name)],
    clock: typeof card.manifest?.created_at === 'string' ? card.manifest.created_at : null,
    models: !String(s.judge_kind).startsWith('lexical'),
  };
}
