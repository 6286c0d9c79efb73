/**
 * Study packs: one archive that lets anyone re-derive every number of a study offline
 * (`citegeist pack`, `replay`, `pack inspect`, `pack verify`; docs/packs.md).
 *
 * Making a pack replays the study first, in a scratch folder, against the workspace's reply cache
 * in cache-only mode, and keeps exactly the replies that replay served: so a pack holds the model
 * replies its outputs used and nothing else from the cache, and an output is called replayable only
 * when that replay reproduced it byte for byte.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { sha256Hex as sha256 } from '../core/index.js';
import { writeFileAtomic } from '../io/index.js';
import { ResponseCache } from '../llm/index.js';
import { PAPERS_CACHE_PATH } from '../store/index.js';
import { describeSubset } from './corpus-subset.js';
import { PACK_FORMAT, type PackFile, type PackManifest, PackManifestSchema } from './pack-format.js';
import { layOut, type OutputVerdict, replaySteps, type StepRunner } from './replay-steps.js';
import { collectStudy } from './study.js';
import { type TarEntry, writeTarGz } from './tar.js';

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
  /** Pack papers folders whole, not only the papers the study read (corpus-subset.ts). */
  withCorpus?: boolean;
  version: string;
  now: Date;
  run: StepRunner;
  /** Where `meta-eval judge` finds human-judgment sets besides ./human-labels ($CITEGEIST_HUMAN_LABELS). */
  humanLabels?: string;
}

export interface MadePack {
  manifest: PackManifest;
  verdicts: OutputVerdict[];
  bytes: number;
}

/** Collects the study, replays it once to find the replies it needs and to check it, writes the pack. */
export async function makePack(o: MakePackOptions): Promise<MadePack> {
  const scratch = mkdtempSync(join(tmpdir(), 'citegeist-pack-'));
  try {
    const study = await collectStudy(o.outputs, o.cwd, {
      ...(o.humanLabels ? { humanLabels: o.humanLabels } : {}),
      withCorpus: o.withCorpus === true,
      // A corpus file subset is a file the pack writes: referenced only, no reader could supply
      // it, so with --exclude-inputs the corpus file is referenced whole.
      ...(o.excludeInputs ? {} : { scratch }),
    });
    const contents = new Map<string, Uint8Array>();
    const files: PackFile[] = study.files.map((f) => {
      const data = readFileSync(f.from ?? f.abs);
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
      corpus_subsets: study.subsets,
      notes: [...study.notes],
    };
    // The check replay: inputs laid out, every step run, replies served from a copy of the cache.
    const root = join(scratch, 'study');
    layOut(root, draft, (sha) => contents.get(sha) ?? null, false);
    seedPapersCache(o.cwd, resolve(root, draft.cwd));
    const usedLog = join(scratch, 'replies-used.txt');
    writeFileSync(usedLog, '');
    let cacheCopy: string | null = null;
    if (o.cache && existsSync(o.cache) && draft.steps.some((s) => s.models)) {
      cacheCopy = join(scratch, 'cache.sqlite');
      copyFileSync(o.cache, cacheCopy);
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
    const replies = cacheCopy && keys.length > 0 ? ResponseCache.storedReplies(cacheCopy, keys) : [];
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
    writeFileAtomic(o.out, gz);
    return { manifest, verdicts, bytes: gz.length };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * The check replay reads the papers the workspace's papers cache already parsed (found there by
 * file name and content hash, `PapersCache`) instead of parsing them again: a copy, so the check
 * writes nothing into the workspace. Parsing depends only on a file's bytes, name and the
 * extractor version, so the outputs re-derived are the same; `replay` parses the packed files.
 */
function seedPapersCache(cwd: string, studyCwd: string): void {
  const cache = resolve(cwd, PAPERS_CACHE_PATH);
  if (!existsSync(cache)) return;
  const copy = resolve(studyCwd, PAPERS_CACHE_PATH);
  mkdirSync(dirname(copy), { recursive: true });
  // The cache runs in WAL mode: its pages not yet in the main file are copied too.
  for (const suffix of ['', '-wal']) {
    if (existsSync(`${cache}${suffix}`)) copyFileSync(`${cache}${suffix}`, `${copy}${suffix}`);
  }
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
    // Each file's sha256 is in pack.json (`citegeist pack verify` checks them); listing them here
    // again would cost the archive about as much as the hashes themselves, which do not compress.
    ...m.files.map((f) => `- ${f.path} (${f.role}, ${f.size} bytes${f.packed ? '' : ', referenced only'})`),
    ...(m.corpus_subsets.length > 0
      ? [
          '',
          '## Corpus subsets',
          '',
          'Of a papers folder or corpus file, the pack holds the whole papers the grading read (every paper the',
          "dataset names), not the folder or file: the grades' manifests hash exactly those papers' texts, so they",
          'replay identically. A corpus file subset is a new corpus file the pack wrote holding those papers.',
          '',
          ...m.corpus_subsets.map((s) => `- ${describeSubset(s)}`),
        ]
      : []),
    ...(m.notes.length > 0 ? ['', '## Notes', '', ...m.notes.map((n) => `- ${n}`)] : []),
    '',
  ];
  return lines.join('\n');
}
