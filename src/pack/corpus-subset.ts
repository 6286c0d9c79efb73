/**
 * The corpus subset a pack holds by default: of a papers folder a grades file was made from, only
 * the whole papers its grading read (every paper its dataset's rows name, as `grade` reads them),
 * so grading re-derives the same grades byte for byte; `pack --with-corpus` packs the folder whole.
 *
 * A grades file's manifest hashes the texts of the papers its grading read (`inputs.papers`), not
 * the folder: the subset holds exactly those papers, so the replayed manifest carries the original
 * hash. The pack also records what the subset stands for — the whole folder's hash (names and
 * bytes of its files in name order, as a `.meta.json` hashes a folder) and how many files it had —
 * so a replay says "a subset of N of M papers standing for sha256 …", never that it is the corpus.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { loadDatasetIndex } from '../formats/index.js';
import { folderFiles as inputFolderFiles } from '../io/index.js';
import { CorpusStore, openCorpus, PapersDir } from '../store/index.js';
import type { CorpusSubset, PackManifest } from './pack-format.js';

/** The files of `folder` that grading with `dataset` reads: one per paper the dataset names, when found. */
export async function papersRead(dataset: string, folder: string): Promise<string[]> {
  const index = await loadDatasetIndex(dataset);
  try {
    const dir = PapersDir.open(folder);
    const files = new Set<string>();
    for (const row of index.rows) {
      const file = dir.fileOf(row.paper_id);
      if (file !== undefined) files.add(file);
    }
    return [...files].sort();
  } finally {
    index.close();
  }
}

/**
 * The files directly in a folder, in name order, hidden ones skipped: the one walker every folder
 * input uses (`folderFiles` in io/), as paths.
 */
export function folderFiles(folder: string): string[] {
  return inputFolderFiles(folder).map((f) => f.path);
}

/** The paper ids grading with these datasets reads: every paper their rows name. */
async function paperIdsRead(datasets: readonly string[]): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const dataset of datasets) {
    const index = await loadDatasetIndex(dataset);
    try {
      for (const row of index.rows) ids.add(row.paper_id);
    } finally {
      index.close();
    }
  }
  return ids;
}

/**
 * Writes to `out` (a new file) a corpus holding only the papers grading with `datasets` reads from
 * `corpus`: each stored document copied whole, same id and text, through the store's own API (so
 * the file has the store's real schema and version). Grading reads a paper by id, its text and
 * match forms (computed from the text), so it grades the same from this file. Its bytes differ
 * from run to run (ingest times, the store's random change token); the pack records the hash of
 * the bytes it stores.
 */
export async function writeCorpusSubset(
  datasets: readonly string[],
  corpus: string,
  out: string,
): Promise<{ papers: number; of: number }> {
  const ids = await paperIdsRead(datasets);
  const source = openCorpus(corpus);
  try {
    const target = CorpusStore.open(out);
    try {
      for (const id of [...ids].sort()) {
        const doc = source.get(id);
        if (doc) target.upsert(doc);
      }
      return { papers: target.ids().length, of: source.ids().length };
    } finally {
      target.close();
    }
  } finally {
    source.close();
  }
}

/** SHA-256 over each file's name and bytes, in name order (as `hashInputs` hashes a folder). */
export function folderSha256(files: readonly { name: string; bytes: Uint8Array }[]): string {
  const hash = createHash('sha256');
  for (const f of [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    hash.update(f.name);
    hash.update(f.bytes);
  }
  return hash.digest('hex');
}

/** `folderSha256` of files on disk. */
export function folderSha256Of(files: readonly string[]): string {
  return folderSha256(files.map((f) => ({ name: basename(f), bytes: readFileSync(f) })));
}

/** How a pack names a subset, for `replay`, `pack inspect` and the pack's README. */
export function describeSubset(s: CorpusSubset): string {
  if (s.kind === 'corpus file')
    return `corpus subset: ${s.path} holds ${s.papers} of ${s.of} papers, standing for sha256 ${s.sha256} (the whole corpus file; --with-corpus packs it)`;
  return `corpus subset: ${s.path}/ holds ${s.papers} of ${s.of} papers, standing for sha256 ${s.sha256} (the whole folder; --with-corpus packs it)`;
}

/**
 * Checks each subset of a pack against its packed files: the files directly in the folder hash to
 * `subset_sha256` and are `papers` many (a corpus file subset: the file listed hashes to it). Null when all agree, else what is wrong; a subset whose
 * files are referenced only (`--exclude-inputs`) is checked by count alone.
 */
export function subsetProblem(m: PackManifest, bytes: (sha: string) => Uint8Array | null): string | null {
  for (const s of m.corpus_subsets) {
    if (s.kind === 'corpus file') {
      // The subset is one file: the pack's own check of its bytes covers it, given it is that file.
      const f = m.files.find((x) => x.path === s.path);
      if (!f) return `the subset ${s.path} is not among the pack's files`;
      if (f.sha256 !== s.subset_sha256)
        return `the subset ${s.path} hashes to ${f.sha256.slice(0, 12)}…, pack.json says ${s.subset_sha256.slice(0, 12)}…`;
      continue;
    }
    // A folder that is the study's root itself (`--papers .`) has the logical path `.`.
    const prefix = s.path === '.' ? '' : `${s.path}/`;
    const inside = m.files.filter(
      (f) => f.path.startsWith(prefix) && !f.path.slice(prefix.length).includes('/'),
    );
    if (inside.length !== s.papers)
      return `the subset ${s.path}/ lists ${s.papers} papers, the pack holds ${inside.length} there`;
    const data = inside.map((f) => ({ name: f.path.slice(prefix.length), bytes: bytes(f.sha256) }));
    if (data.some((d) => d.bytes === null)) continue;
    const got = folderSha256(data as { name: string; bytes: Uint8Array }[]);
    if (got !== s.subset_sha256)
      return `the subset ${s.path}/ hashes to ${got.slice(0, 12)}…, pack.json says ${s.subset_sha256.slice(0, 12)}…`;
  }
  return null;
}
