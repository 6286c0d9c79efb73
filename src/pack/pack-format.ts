/**
 * `pack.json`, the manifest at the root of a study pack: what the pack holds, by content hash,
 * and how to re-derive each derived output from the packed inputs and model replies.
 *
 * Layout of the archive:
 *
 *   pack.json                 this manifest (format version `citegeist_pack`)
 *   README.md                 what the pack holds and how to replay it, for a reader without citegeist
 *   files/<sha256>            every packed file, once per content (inputs and outputs alike)
 *   replies.jsonl             the model replies the outputs used: {key, model, text, input_tokens, output_tokens}
 *
 * Files are named in `files` by their place in the study ("logical path", relative to the study's
 * root, forward slashes); steps run with `cwd` as their working folder, so the relative paths the
 * outputs' manifests record resolve as they did when the study was made.
 */
import { z } from 'zod';

export const PACK_FORMAT = 1;

const Sha = z.string().regex(/^[0-9a-f]{64}$/);
const LogicalPath = z
  .string()
  .min(1)
  .refine(
    (p) => !p.startsWith('/') && !p.split('/').some((s) => s === '..' || s === ''),
    'a relative path inside the study',
  );

export const PackFileSchema = z.object({
  path: LogicalPath,
  sha256: Sha,
  size: z.number().int().nonnegative(),
  /** output: re-derived on replay and compared; input: laid out before the steps run. */
  role: z.enum(['output', 'input']),
  /** Packed bytes (true), or only referenced by hash and size (`--exclude-inputs`). */
  packed: z.boolean(),
});
export type PackFile = z.infer<typeof PackFileSchema>;

export const ReplayStepSchema = z.object({
  /** What is re-derived (for messages): the output's logical path. */
  id: z.string(),
  /** `cli`: a citegeist command line; `report`: `citegeist report` with the report's own recipe. */
  kind: z.enum(['cli', 'report']),
  argv: z.array(z.string()).optional(),
  /** The report's recipe options (paths relative to the report's folder). */
  options: z.record(z.string(), z.unknown()).optional(),
  /** The working folder (logical path; `.` is the study root). */
  cwd: z.string(),
  /** The time the original output records; replay fixes the clock to it (`CITEGEIST_CLOCK`). */
  clock: z.string().nullable(),
  /** Whether the step calls models (replayed from `replies.jsonl` with --cache-only). */
  models: z.boolean(),
  outputs: z.array(LogicalPath),
  /** Set when the pack-time replay did not reproduce the outputs: why (the first differing line). */
  not_replayable: z.string().nullable(),
});
export type ReplayStep = z.infer<typeof ReplayStepSchema>;

/**
 * A papers folder or corpus file packed as a subset (the default; `pack --with-corpus` packs it
 * whole): the whole papers the study's grading read, standing for the source they came from.
 */
export const CorpusSubsetSchema = z.object({
  /**
   * A papers folder (its packed files are the `files` under `path`), or a corpus file (`--corpus`:
   * `path` is a new corpus file holding only the papers read, written by the pack).
   */
  kind: z.enum(['folder', 'corpus file']).default('folder'),
  /** The folder or corpus file (logical path). */
  path: LogicalPath,
  /** Files packed, of the files the folder held. */
  papers: z.number().int().nonnegative(),
  of: z.number().int().nonnegative(),
  /**
   * What the subset stands for: the whole folder's sha256 (its files' names and bytes in name
   * order), or the whole corpus file's sha256 (its bytes).
   */
  sha256: Sha,
  /** The same hash over the packed files, or the subset corpus file's bytes (checked by `pack verify`). */
  subset_sha256: Sha,
});
export type CorpusSubset = z.infer<typeof CorpusSubsetSchema>;

export const PackManifestSchema = z.object({
  citegeist_pack: z.literal(PACK_FORMAT),
  tool: z.object({ name: z.literal('citegeist'), version: z.string() }),
  created_at: z.string(),
  /** The study's working folder (logical): where the commands that made the outputs ran. */
  cwd: z.string(),
  files: z.array(PackFileSchema),
  steps: z.array(ReplayStepSchema),
  replies: z.object({ count: z.number().int().nonnegative(), sha256: Sha }),
  /** Papers folders packed as subsets (none: every corpus packed whole, or a pack made before subsets). */
  corpus_subsets: z.array(CorpusSubsetSchema).default([]),
  /** Things a reader should know (an input referenced only, an output not replayable, …). */
  notes: z.array(z.string()),
});
export type PackManifest = z.infer<typeof PackManifestSchema>;

/** One cached model reply, as packed. */
export interface PackedReply {
  key: string;
  model: string;
  text: string;
  input_tokens: number | null;
  output_tokens: number | null;
}

/** Default bounds for reading a pack (untrusted input). */
export const DEFAULT_PACK_LIMITS = { maxBytes: 2 * 1024 ** 3 - 1, maxEntries: 200_000 };
