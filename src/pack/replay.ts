/**
 * `citegeist replay`: re-derives every output of a study pack from its inputs and replies, offline,
 * and compares each with the packed bytes; with `rejudge` (`regenerate`), the judged steps call
 * another judge (the runs are written again by another generator) and the drift is measured
 * (`judgeDrift`).
 */
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CitegeistError, sha256Hex as sha256 } from '../core/index.js';
import { type JudgeDrift, judgeDrift } from './judge-drift.js';
import { type LiveStep, liveOverride } from './live-steps.js';
import type { OpenedPack } from './open-pack.js';
import { layOut, type OutputVerdict, replaySteps, type StepRunner } from './replay-steps.js';
import { writeReplyCache } from './reply-cache.js';

export interface ReplayOptions {
  pack: OpenedPack;
  /** An empty (or new) folder to replay in. */
  dir: string;
  run: StepRunner;
  /**
   * A judge model spec: the judged steps call it, live, instead of the packed replies, and the
   * drift from the packed judge is reported. Live replies go to `live-replies.sqlite` in `dir`.
   */
  rejudge?: string;
  /**
   * A generator model spec: runs written by `citegeist answer` are written again with it before
   * they are graded (the judge called live for the new answers), and the drift is reported.
   */
  regenerate?: string;
  version: string;
  /** A folder holding inputs packed by reference only (found by content hash). */
  inputsDir?: string;
}

/** Re-derives every replayable output of a pack in `dir` and compares it with the packed bytes. */
export async function replayPack(
  o: ReplayOptions,
): Promise<{ verdicts: OutputVerdict[]; drift: JudgeDrift[] }> {
  const { manifest } = o.pack;
  const referenced = new Map<string, Uint8Array>();
  for (const f of manifest.files) {
    if (f.packed || f.role !== 'input') continue;
    const candidate = o.inputsDir ? join(o.inputsDir, f.path) : null;
    const data = candidate && existsSync(candidate) ? readFileSync(candidate) : null;
    if (!data || sha256(data) !== f.sha256) {
      throw new CitegeistError(
        'PACK_INPUT_MISSING',
        `${f.path} (sha256 ${f.sha256.slice(0, 12)}…, ${f.size} bytes) is referenced by the pack, not packed, and was not found${o.inputsDir ? ` in ${o.inputsDir}` : ''}.`,
        'Put the file at the same relative path under a folder and pass it with --inputs DIR.',
      );
    }
    referenced.set(f.sha256, data);
  }
  const root = resolve(o.dir, 'study');
  if (existsSync(root))
    throw new CitegeistError('OUTPUT_UNWRITABLE', `${root} exists already.`, 'Replay into an empty folder.');
  layOut(root, manifest, (sha) => o.pack.file(sha) ?? referenced.get(sha) ?? null, false);
  const cacheFile = join(o.dir, 'replies.sqlite');
  writeReplyCache(cacheFile, o.pack.replies);
  // Live calls go through a cache seeded with the packed replies: a request the pack holds is
  // answered from it, a new one calls the model, and the cache can be packed again.
  const live = { file: join(o.dir, 'live-replies.sqlite'), usedLog: null, live: true };
  // Written once: the live cache starts as a copy of the file (closed, so its WAL is checkpointed).
  if (o.rejudge || o.regenerate) {
    for (const suffix of ['', '-wal']) {
      if (existsSync(`${cacheFile}${suffix}`)) copyFileSync(`${cacheFile}${suffix}`, `${live.file}${suffix}`);
    }
  }
  const changed: LiveStep[] = [];
  const verdicts = await replaySteps(
    manifest,
    root,
    (sha) => o.pack.file(sha),
    o.run,
    { file: cacheFile, usedLog: null },
    liveOverride(o, root, o.run, live, changed),
  );
  const drift = changed
    .filter((c) => c.step.argv![0] === 'grade')
    .flatMap(({ step, judge, regenerated }) => {
      const out = step.outputs[0]!;
      const packed = o.pack.file(manifest.files.find((f) => f.path === out)?.sha256 ?? '');
      const file = resolve(root, out);
      if (!packed || !existsSync(file)) return [];
      return [
        judgeDrift({
          output: out,
          packed: Buffer.from(packed).toString('utf8'),
          rejudged: readFileSync(file, 'utf8'),
          oldJudge: judge ?? 'none',
          newJudge: o.rejudge ?? judge ?? 'none',
          ...(regenerated ? { regenerated: o.regenerate! } : {}),
          version: o.version,
        }),
      ];
    });
  const marked = verdicts.map((v) => {
    const step = manifest.steps.find((s) => s.id === v.step);
    return step?.not_replayable && v.verdict !== 'identical'
      ? {
          ...v,
          verdict: 'not replayed' as const,
          detail: `not replayable when packed: ${step.not_replayable}`,
        }
      : v;
  });
  return { verdicts: marked, drift };
}
