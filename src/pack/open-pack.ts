/** Opening a study pack: read as untrusted input, every hash and size checked against pack.json. */
import { existsSync, readFileSync } from 'node:fs';
import { CitegeistError, sha256Hex as sha256 } from '../core/index.js';
import { subsetProblem } from './corpus-subset.js';
import {
  DEFAULT_PACK_LIMITS,
  type PackedReply,
  type PackManifest,
  PackManifestSchema,
} from './pack-format.js';
import { type ReadLimits, readTarGz, type TarEntry } from './tar.js';

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
  const subset = subsetProblem(manifest, (sha) => byName.get(`files/${sha}`) ?? null);
  if (subset)
    throw new CitegeistError(
      'PACK_INVALID',
      `${path}: ${subset}.`,
      'The pack was altered; ask for a new copy.',
    );
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
