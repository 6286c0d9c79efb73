/**
 * Study packs: one archive that lets anyone re-derive every number of a study offline
 * (`citegeist pack`, `replay`, `pack inspect`, `pack verify`; docs/packs.md).
 *
 * Making a pack replays the study first, in a scratch folder, against the workspace's reply cache
 * in cache-only mode, and keeps exactly the replies that replay served: so a pack holds the model
 * replies its outputs used and nothing else from the cache, and an output is called replayable only
 * when that replay reproduced it byte for byte.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { CitegeistError, sha256Hex as sha256 } from '../core/index.js';
import {
  DEFAULT_PACK_LIMITS,
  PACK_FORMAT,
  type PackedReply,
  type PackFile,
  type PackManifest,
  PackManifestSchema,
  type ReplayStep,
} from './pack-format.js';
import { collectStudy } from './study.js';
import { type ReadLimits, readTarGz, type TarEntry, writeTarGz } from './tar.js';

/** Runs one step of a replay in `root` (the unpacked study); the CLI supplies it. */
export type StepRunner = (
  step: ReplayStep,
  root: string,
  cache: { file: string; usedLog: string | null } | null,
) => Promise<{ code: number; messages: string }>;

/** What the replay of one output gave. */
export interface OutputVerdict {
  path: string;
  step: string;
  verdict: 'identical' | 'differs' | 'missing' | 'not replayed';
  /** For `differs`: the first differing line, numbered, packed then replayed. */
  detail: string | null;
}

/** Lays the packed files out under `root` (inputs, and outputs only when `withOutputs`). */
function layOut(
  root: string,
  manifest: PackManifest,
  bytes: (sha: string) => Uint8Array | null,
  withOutputs: boolean,
) {
  for (const f of manifest.files) {
    if (f.role === 'output' && !withOutputs) continue;
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

function firstDifference(a: Uint8Array, b: Uint8Array): string {
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

/** Writes the replies as a fresh SQLite cache is not this stage's business: the runner gets them as JSONL. */
async function replaySteps(
  manifest: PackManifest,
  root: string,
  expected: (sha: string) => Uint8Array | null,
  run: StepRunner,
  cache: { file: string; usedLog: string | null } | null,
): Promise<OutputVerdict[]> {
  const verdicts: OutputVerdict[] = [];
  const shaOf = new Map(manifest.files.map((f) => [f.path, f.sha256]));
  for (const step of manifest.steps) {
    // An output's folder exists before its step runs, as it did when the study was made.
    for (const out of step.outputs) mkdirSync(dirname(resolve(root, out)), { recursive: true });
    const result = await run(step, root, step.models ? cache : null);
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

export interface MakePackOptions {
  /** Output files to pack (the study is everything they were made from). */
  outputs: string[];
  /** The folder the commands that made the outputs ran in. */
  cwd: string;
  out: string;
  /** The workspace's reply cache (SQLite), for the replies of model-judged outputs. */
  cache: string | null;
  /** Reference inputs by hash and size instead of packing their bytes. */
  excludeInputs: boolean;
  version: string;
  now: Date;
  run: StepRunner;
  /** Reads the cache entries named by `keys` (the CLI opens the SQLite file). */
  readReplies: (cacheFile: string, keys: readonly string[]) => PackedReply[];
}

export interface MadePack {
  manifest: PackManifest;
  verdicts: OutputVerdict[];
  bytes: number;
}

/** Collects the study, replays it once to find the replies it needs and to check it, writes the pack. */
export async function makePack(o: MakePackOptions): Promise<MadePack> {
  const study = collectStudy(o.outputs, o.cwd);
  const scratch = mkdtempSync(join(tmpdir(), 'citegeist-pack-'));
  try {
    const contents = new Map<string, Uint8Array>();
    const files: PackFile[] = study.files.map((f) => {
      const data = readFileSync(f.abs);
      const sha = sha256(data);
      contents.set(sha, data);
      return {
        path: f.path,
        sha256: sha,
        size: data.length,
        role: f.role,
        packed: f.role === 'output' || !o.excludeInputs,
      };
    });
    const draft: PackManifest = {
      citegeist_pack: PACK_FORMAT,
      tool: { name: 'citegeist', version: o.version },
      created_at: o.now.toISOString(),
      cwd: study.cwd,
      files,
      steps: study.steps,
      replies: { count: 0, sha256: sha256('') },
      notes: [...study.notes],
    };
    // The check replay: inputs laid out, every step run, replies served from a copy of the cache.
    const root = join(scratch, 'study');
    layOut(root, draft, (sha) => contents.get(sha) ?? null, false);
    const usedLog = join(scratch, 'replies-used.txt');
    writeFileSync(usedLog, '');
    let cacheCopy: string | null = null;
    if (o.cache && existsSync(o.cache) && draft.steps.some((s) => s.models)) {
      cacheCopy = join(scratch, 'cache.sqlite');
      writeFileSync(cacheCopy, readFileSync(o.cache));
    }
    const verdicts = await replaySteps(
      draft,
      root,
      (sha) => contents.get(sha) ?? null,
      o.run,
      cacheCopy ? { file: cacheCopy, usedLog } : null,
    );
    for (const step of draft.steps) {
      const bad = verdicts.filter((v) => v.step === step.id && v.verdict !== 'identical');
      if (bad.length > 0) {
        step.not_replayable = bad
          .map((v) => `${v.path}: ${v.verdict}${v.detail ? ` (${v.detail})` : ''}`)
          .join('; ');
        draft.notes.push(`${step.id} did not replay identically when packed: ${step.not_replayable}`);
      }
    }
    const keys = [
      ...new Set(
        readFileSync(usedLog, 'utf8')
          .split('\n')
          .filter((k) => k !== ''),
      ),
    ].sort();
    const replies = cacheCopy && keys.length > 0 ? o.readReplies(cacheCopy, keys) : [];
    const repliesText = replies.map((r) => JSON.stringify(r)).join('\n') + (replies.length > 0 ? '\n' : '');
    draft.replies = { count: replies.length, sha256: sha256(repliesText) };
    const manifest = PackManifestSchema.parse(draft);
    const entries: TarEntry[] = [
      { path: 'pack.json', data: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`) },
      { path: 'README.md', data: Buffer.from(packReadme(manifest)) },
      { path: 'replies.jsonl', data: Buffer.from(repliesText) },
    ];
    const packed = new Set<string>();
    for (const f of manifest.files) {
      if (!f.packed || packed.has(f.sha256)) continue;
      packed.add(f.sha256);
      entries.push({ path: `files/${f.sha256}`, data: contents.get(f.sha256)! });
    }
    const gz = writeTarGz(entries, Math.floor(o.now.getTime() / 1000));
    mkdirSync(dirname(resolve(o.out)), { recursive: true });
    writeFileSync(o.out, gz);
    return { manifest, verdicts, bytes: gz.length };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export interface OpenedPack {
  manifest: PackManifest;
  replies: PackedReply[];
  /** Bytes of a packed file by content hash (null: referenced only). */
  file(sha: string): Uint8Array | null;
  entries: TarEntry[];
}

/** Reads and checks a pack: every entry's hash against pack.json (PACK_INVALID naming the entry). */
export function openPack(path: string, limits: ReadLimits = DEFAULT_PACK_LIMITS): OpenedPack {
  if (!existsSync(path))
    throw new CitegeistError('FILE_NOT_FOUND', `${path} does not exist.`, 'Give the path of a .cgpack file.');
  const entries = readTarGz(path, readFileSync(path), limits);
  const byName = new Map(entries.map((e) => [e.path, e.data]));
  const raw = byName.get('pack.json');
  if (!raw)
    throw new CitegeistError(
      'PACK_INVALID',
      `${path} has no pack.json.`,
      'The file is not a citegeist study pack.',
    );
  let manifest: PackManifest;
  try {
    manifest = PackManifestSchema.parse(JSON.parse(Buffer.from(raw).toString('utf8')));
  } catch (error) {
    throw new CitegeistError(
      'PACK_INVALID',
      `${path}: pack.json is not a study pack manifest (${(error as Error).message.slice(0, 300)}).`,
      'The pack was altered or made by a newer citegeist; ask for a new copy.',
    );
  }
  const known = new Set([
    'pack.json',
    'README.md',
    'replies.jsonl',
    ...manifest.files.map((f) => `files/${f.sha256}`),
  ]);
  for (const e of entries) {
    if (!known.has(e.path))
      throw new CitegeistError(
        'PACK_INVALID',
        `${path}: entry ${JSON.stringify(e.path)} is not listed in pack.json.`,
        'The pack was altered; ask for a new copy.',
      );
    if (e.path.startsWith('files/') && sha256(e.data) !== e.path.slice('files/'.length)) {
      throw new CitegeistError(
        'PACK_INVALID',
        `${path}: entry ${e.path} does not hash to its name (the file was changed).`,
        'The pack was altered or damaged; ask for a new copy.',
      );
    }
  }
  for (const f of manifest.files) {
    if (f.packed && !byName.has(`files/${f.sha256}`))
      throw new CitegeistError(
        'PACK_INVALID',
        `${path}: ${f.path} is listed as packed but entry files/${f.sha256} is missing.`,
        'The pack is incomplete; ask for a new copy.',
      );
    const data = byName.get(`files/${f.sha256}`);
    if (data && data.length !== f.size)
      throw new CitegeistError(
        'PACK_INVALID',
        `${path}: ${f.path} has ${data.length} bytes, pack.json says ${f.size}.`,
        'The pack was altered; ask for a new copy.',
      );
  }
  const repliesRaw = byName.get('replies.jsonl') ?? new Uint8Array();
  if (sha256(repliesRaw) !== manifest.replies.sha256)
    throw new CitegeistError(
      'PACK_INVALID',
      `${path}: replies.jsonl does not match the hash in pack.json.`,
      'The pack was altered; ask for a new copy.',
    );
  const replies = Buffer.from(repliesRaw)
    .toString('utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l, i) => {
      try {
        return JSON.parse(l) as PackedReply;
      } catch {
        throw new CitegeistError(
          'PACK_INVALID',
          `${path}: replies.jsonl line ${i + 1} is not JSON.`,
          'The pack was altered; ask for a new copy.',
        );
      }
    });
  return { manifest, replies, entries, file: (sha) => byName.get(`files/${sha}`) ?? null };
}

export interface ReplayOptions {
  pack: OpenedPack;
  /** An empty (or new) folder to replay in. */
  dir: string;
  run: StepRunner;
  /** Writes the packed replies as a reply cache the runner can serve (--cache-only). */
  writeCache: (file: string, replies: readonly PackedReply[]) => void;
  /** A folder holding inputs packed by reference only (found by content hash). */
  inputsDir?: string;
}

/** Re-derives every replayable output of a pack in `dir` and compares it with the packed bytes. */
export async function replayPack(o: ReplayOptions): Promise<OutputVerdict[]> {
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
  o.writeCache(cacheFile, o.pack.replies);
  const verdicts = await replaySteps(manifest, root, (sha) => o.pack.file(sha), o.run, {
    file: cacheFile,
    usedLog: null,
  });
  return verdicts.map((v) => {
    const step = manifest.steps.find((s) => s.id === v.step);
    return step?.not_replayable && v.verdict !== 'identical'
      ? {
          ...v,
          verdict: 'not replayed' as const,
          detail: `not replayable when packed: ${step.not_replayable}`,
        }
      : v;
  });
}

/** The README inside a pack, for a reader who opens the archive without citegeist. */
export function packReadme(m: PackManifest): string {
  const outputs = m.files.filter((f) => f.role === 'output');
  const inputs = m.files.filter((f) => f.role === 'input');
  const lines = [
    '# A citegeist study pack',
    '',
    `Made by citegeist ${m.tool.version} on ${m.created_at}. It holds ${outputs.length} output file(s), ${inputs.length} input file(s)`,
    `(${inputs.filter((f) => !f.packed).length} referenced by hash only) and ${m.replies.count} model replies.`,
    '',
    'Replay it (no network, no keys): `citegeist replay study.cgpack --dir replayed/`. Every derived output',
    'is re-derived from the packed inputs and replies and compared byte for byte; the exit code is 0 only',
    'when all are identical. `citegeist pack inspect` lists the contents, `citegeist pack verify` checks every hash.',
    '',
    'Layout: `pack.json` (what follows, by content hash, and the steps that re-derive each output),',
    '`files/<sha256>` (each file once), `replies.jsonl` (model replies keyed by request hash).',
    '',
    '## Outputs and how they are re-derived',
    '',
    ...m.steps.map(
      (s) =>
        `- ${s.outputs.join(', ')}: ${s.kind === 'report' ? "`citegeist report` from the report's recipe" : `\`citegeist ${s.argv!.join(' ')}\``}${s.not_replayable ? ` (NOT replayable: ${s.not_replayable})` : ''}`,
    ),
    '',
    '## Files',
    '',
    ...m.files.map(
      (f) =>
        `- ${f.path} (${f.role}, ${f.size} bytes, sha256 ${f.sha256}${f.packed ? '' : ', referenced only'})`,
    ),
    ...(m.notes.length > 0 ? ['', '## Notes', '', ...m.notes.map((n) => `- ${n}`)] : []),
    '',
  ];
  return lines.join('\n');
}
