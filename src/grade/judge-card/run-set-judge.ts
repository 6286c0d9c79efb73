import pLimit from 'p-limit';
import { createManifest, type RunManifest } from '../../core/index.js';
import { RunFile } from '../../io/index.js';
import type { ChatMessage } from '../../llm/index.js';
import { createRandom, randomInt } from '../../stats/index.js';
import type { HumanItem, HumanSet } from '../human-labels/index.js';
import type { CallOptions } from '../vetscore/index.js';
import type { SetJudge, SetJudgment } from './set-judge.js';

/** The human value an item is stratified by: its gold label, or the mean of its labels rounded. */
function stratum(item: HumanItem): number {
  if (item.gold !== undefined) return item.gold;
  const sum = item.labels.reduce((s, l) => s + l.value, 0);
  return Math.round(sum / Math.max(1, item.labels.length));
}

/**
 * `--limit N`: a sample of N items stratified by the human label, each stratum drawn in proportion
 * to its size (largest remainders), by a seeded shuffle; returned in the set's order. All items
 * when N is null or not below the set's size.
 */
export function sampleItems(set: HumanSet, limit: number | null, seed: number): HumanItem[] {
  if (limit === null || limit >= set.items.length) return set.items;
  const strata = new Map<number, number[]>();
  set.items.forEach((item, i) => {
    const s = stratum(item);
    strata.set(s, [...(strata.get(s) ?? []), i]);
  });
  const keys = [...strata.keys()].sort((a, b) => a - b);
  const exact = keys.map((k) => (strata.get(k)!.length * limit) / set.items.length);
  const take = exact.map(Math.floor);
  const order = keys.map((_, i) => i).sort((a, b) => exact[b]! - take[b]! - (exact[a]! - take[a]!) || a - b);
  for (let r = 0, left = limit - take.reduce((s, x) => s + x, 0); r < left; r++) take[order[r]!]!++;
  const random = createRandom(seed);
  const chosen: number[] = [];
  keys.forEach((k, i) => {
    const pool = [...strata.get(k)!];
    for (let j = pool.length - 1; j > 0; j--) {
      const r = randomInt(random, j + 1);
      [pool[j], pool[r]] = [pool[r]!, pool[j]!];
    }
    chosen.push(...pool.slice(0, take[i]));
  });
  return chosen.sort((a, b) => a - b).map((i) => set.items[i]!);
}

export interface SetRunSettings {
  limit: number | null;
  sampleSeed: number;
  version: string;
}

/** The manifest of a judgments file: the judge, its prompt version, the set and its hash, the sample. */
export function judgmentsManifest(set: HumanSet, judge: SetJudge, s: SetRunSettings): RunManifest {
  return createManifest({
    kind: 'judgments',
    defaultLabel: `${judge.kind} ${judge.model} on ${set.name}${set.dimension ? `/${set.dimension}` : ''}`,
    settings: {
      judge_model: judge.model,
      judge_family: judge.family,
      judge_kind: judge.kind,
      prompt_version: judge.promptVersion,
      set: set.name,
      dimension: set.dimension,
      limit: s.limit,
      sample_seed: s.sampleSeed,
    },
    inputs: { set: { sha256: set.sha256, items: set.items.length } },
    version: s.version,
  });
}

/** What a run would send: the sampled items not yet judged and their model requests (`--dry-run`). */
export function planSetJudge(
  items: HumanItem[],
  judge: SetJudge,
): { items: number; requests: ChatMessage[][] } {
  return { items: items.length, requests: items.flatMap((i) => judge.requests(i)) };
}

export interface SetRunResult {
  judged: number;
  resumed: number;
  failed: number;
}

/**
 * Judges the sampled items into a judgments file (manifest, then one row per item), resuming like
 * every judged run: rows already scored in the file are kept, failed ones are judged again, and a
 * file of another judge, prompt version or set is refused (RUN_MANIFEST_MISMATCH).
 */
export async function runSetJudge(
  items: HumanItem[],
  judge: SetJudge,
  manifest: RunManifest,
  options: {
    outPath: string;
    concurrency: number;
    call: CallOptions;
    command: string;
    onItem?: (item: HumanItem, judgment: SetJudgment) => void;
  },
): Promise<SetRunResult> {
  const file = RunFile.open(options.outPath, {
    manifest,
    idField: 'id',
    keep: (row) => row.status !== 'failed',
    what: 'judgments file',
    command: options.command,
  });
  const done = new Set(file.kept.map((r) => String(r.id)));
  const todo = items.filter((i) => !done.has(i.id));
  let failed = 0;
  try {
    const lanes = pLimit(Math.max(1, Math.floor(options.concurrency)));
    await Promise.all(
      todo.map((item) =>
        lanes(async () => {
          let judgment: SetJudgment;
          try {
            judgment = await judge.judge(item, options.call);
          } catch (error) {
            if (options.call.signal?.aborted) throw error;
            judgment = { status: 'failed', reason: (error as Error).message };
          }
          if (judgment.status === 'failed') failed++;
          file.append({ id: item.id, ...judgment });
          options.onItem?.(item, judgment);
        }),
      ),
    );
  } finally {
    file.close();
  }
  return { judged: todo.length, resumed: items.length - todo.length, failed };
}
