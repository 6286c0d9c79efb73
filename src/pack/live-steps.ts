/**
 * Replay with live models (`replay --rejudge M`, `--regenerate M`): which steps call a model live
 * instead of the packed replies, and how their command lines change.
 *
 * - `--rejudge M`: a judged step runs with M as its judge (and as its harm judge and decomposer
 *   where those were the judge).
 * - `--regenerate M`: before a `grade` step whose run was written by `citegeist answer` with a
 *   model, the run is written again by `answer` with M (same dataset, papers, context, k,
 *   contract); the step then grades the new answers, its judge (the packed one, or `--rejudge`'s)
 *   called live for what the packed replies do not hold.
 *
 * A changed step gets no fixed clock and no packed label: its outputs are new.
 */
import { existsSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ReplayStep } from './pack-format.js';
import type { StepCache, StepRunner } from './replay-steps.js';
import { firstLineJson } from './study.js';

export interface LiveOptions {
  rejudge?: string;
  regenerate?: string;
}

/** A step run live: the packed command's judge, and whether its run was regenerated. */
export interface LiveStep {
  step: ReplayStep;
  judge: string | null;
  regenerated: boolean;
}

const JUDGE_FLAGS = ['--harm-judge', '--decomposer'];

/** The `answer` command line that writes the run `runPath` again with `model`, or null. */
function answerArgv(root: string, step: ReplayStep, model: string): { argv: string[]; run: string } | null {
  const argv = step.argv!;
  const flag = (name: string) => {
    const i = argv.indexOf(name);
    return i < 0 ? undefined : argv[i + 1];
  };
  const run = flag('--run');
  if (!run) return null;
  const manifest = firstLineJson(resolve(root, step.cwd, run));
  const s = (manifest?.settings ?? {}) as Record<string, unknown>;
  // Only a run a model wrote under `answer` with its own passages can be written again.
  if (manifest?.kind !== 'run' || typeof s.model !== 'string' || s.model === 'extractive') return null;
  // (Passages from another engine's run, `--retrieved`, are not in the pack: such a run is kept.)
  if (s.retriever !== undefined && !/\bBM25\b/i.test(String(s.retriever))) return null;
  const source =
    flag('--papers') !== undefined ? ['--papers', flag('--papers')!] : ['--corpus', flag('--corpus')!];
  const out = ['answer', '--dataset', flag('--dataset')!, ...source, '--model', model];
  if (s.free_text === true) out.push('--free-text');
  else {
    out.push('--context', String(s.context ?? 'auto'));
    if (s.contract === false) out.push('--baseline');
  }
  out.push('-k', String(s.k ?? 8), '--no-check', '--out', run);
  return { argv: out, run };
}

/**
 * The override `replaySteps` calls per step: null keeps the packed step; otherwise the changed step
 * and the cache it runs with (`live`: calls the model for what it does not hold). Steps it changed
 * are pushed to `changed`.
 */
export function liveOverride(
  o: LiveOptions,
  root: string,
  run: StepRunner,
  live: StepCache,
  changed: LiveStep[],
): (step: ReplayStep) => Promise<{ step: ReplayStep; cache: StepCache | null } | null> {
  return async (step) => {
    if (!step.argv) return null;
    const at = step.argv.indexOf('--judge');
    const judge = at < 0 ? null : step.argv[at + 1]!;
    let regenerated = false;
    if (o.regenerate && step.argv[0] === 'grade') {
      const answer = answerArgv(root, step, o.regenerate);
      if (answer) {
        // `answer` resumes a run file it finds: the packed run is removed so every row is answered anew.
        const file = resolve(root, step.cwd, answer.run);
        if (existsSync(file)) rmSync(file);
        await run(
          { ...step, id: `${step.id} (regenerate)`, argv: answer.argv, clock: null, outputs: [] },
          root,
          live,
        );
        regenerated = true;
      }
    }
    const rejudge = o.rejudge && step.models && judge !== null;
    if (!regenerated && !rejudge) return null;
    const label = step.argv.indexOf('--label');
    const argv = step.argv
      .map((a, i) =>
        rejudge && (i === at + 1 || (a === judge && JUDGE_FLAGS.includes(step.argv![i - 1]!)))
          ? o.rejudge!
          : a,
      )
      .filter((_, i) => label < 0 || (i !== label && i !== label + 1));
    changed.push({ step, judge, regenerated });
    return { step: { ...step, argv, clock: null }, cache: step.models ? live : null };
  };
}
