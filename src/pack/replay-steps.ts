/**
 * Running a pack's replay steps in an unpacked study and comparing what they write with the packed
 * bytes: shared by the check replay `pack` makes and by `replay`.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CitegeistError, sha256Hex as sha256 } from '../core/index.js';
import type { PackManifest, ReplayStep } from './pack-format.js';

/** The reply cache a step is served from: cache-only (the packed replies), or live (`--rejudge`). */
export interface StepCache {
  file: string;
  /** Where `CITEGEIST_CACHE_USED` logs the keys served (the check replay), or null. */
  usedLog: string | null;
  /** Calls the model for what the cache does not hold (a re-judged step), instead of --cache-only. */
  live?: boolean;
}

/** Runs one step of a replay in `root` (the unpacked study); the CLI supplies it. */
export type StepRunner = (
  step: ReplayStep,
  root: string,
  cache: StepCache | null,
) => Promise<{ code: number; messages: string }>;

/** What the replay of one output gave. */
export interface OutputVerdict {
  path: string;
  step: string;
  verdict: 'identical' | 'differs' | 'missing' | 'not replayed';
  /** For `differs`: the first differing line, numbered, packed then replayed. */
  detail: string | null;
}

/**
 * Lays the packed files out under `root`: inputs, outputs no step re-derives (packed as they are,
 * such as a judge card made from a labels file, which a report may read), and the other outputs
 * only when `withOutputs`.
 */
export function layOut(
  root: string,
  manifest: PackManifest,
  bytes: (sha: string) => Uint8Array | null,
  withOutputs: boolean,
) {
  const derived = new Set(manifest.steps.flatMap((s) => s.outputs));
  for (const f of manifest.files) {
    if (f.role === 'output' && !withOutputs && derived.has(f.path)) continue;
    const data = bytes(f.sha256);
    if (data === null) continue;
    const target = resolve(root, f.path);
    if (!target.startsWith(resolve(root))) {
      throw new CitegeistError(
        'PACK_INVALID',
        `pack.json names ${JSON.stringify(f.path)}, outside the folder.`,
        'Refused; the pack was altered.',
      );
    }
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, data);
  }
}

export function firstDifference(a: Uint8Array, b: Uint8Array): string {
  const la = Buffer.from(a).toString('utf8').split('\n');
  const lb = Buffer.from(b).toString('utf8').split('\n');
  for (let i = 0; i < Math.max(la.length, lb.length); i++) {
    if (la[i] !== lb[i]) {
      const clip = (s: string | undefined) =>
        s === undefined ? '(no line)' : s.length > 160 ? `${s.slice(0, 160)}…` : s;
      return `line ${i + 1}: packed ${clip(la[i])} | replayed ${clip(lb[i])}`;
    }
  }
  return 'same lines, different bytes (line endings?)';
}

/**
 * Runs every step of `manifest` in `root` and compares each output with the packed bytes (`expected`
 * by hash). Steps that call models are served from `cache`; `override` may swap a step's command
 * line and cache (a re-judged step calls a live judge).
 */
export async function replaySteps(
  manifest: PackManifest,
  root: string,
  expected: (sha: string) => Uint8Array | null,
  run: StepRunner,
  cache: StepCache | null,
  override?: (step: ReplayStep) => Promise<{ step: ReplayStep; cache: StepCache | null } | null>,
): Promise<OutputVerdict[]> {
  const verdicts: OutputVerdict[] = [];
  const shaOf = new Map(manifest.files.map((f) => [f.path, f.sha256]));
  for (const step of manifest.steps) {
    // An output's folder exists before its step runs, as it did when the study was made.
    for (const out of step.outputs) mkdirSync(dirname(resolve(root, out)), { recursive: true });
    const swapped = (await override?.(step)) ?? null;
    const result = swapped
      ? await run(swapped.step, root, swapped.cache)
      : await run(step, root, step.models ? cache : null);
    for (const out of step.outputs) {
      const want = expected(shaOf.get(out) ?? '');
      const file = resolve(root, out);
      if (!existsSync(file)) {
        verdicts.push({
          path: out,
          step: step.id,
          verdict: 'missing',
          detail: `exit ${result.code}: ${result.messages.trim().split('\n').slice(-3).join(' / ')}`,
        });
        continue;
      }
      const got = readFileSync(file);
      if (want && sha256(got) === shaOf.get(out))
        verdicts.push({ path: out, step: step.id, verdict: 'identical', detail: null });
      else
        verdicts.push({
          path: out,
          step: step.id,
          verdict: 'differs',
          detail: want ? firstDifference(want, got) : 'not packed',
        });
    }
  }
  return verdicts;
}
