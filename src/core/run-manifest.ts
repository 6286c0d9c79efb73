import { createHash } from 'node:crypto';
import { z } from 'zod';
import { citegeistNow } from './clock.js';
import { CitegeistError, quoteValue } from './errors.js';

/**
 * The first record of every run, grades and results file citegeist writes: which run the rows
 * belong to and how it was made. Resuming into a file is allowed only when its manifest agrees
 * with the command's (`manifestDifferences`); readers key runs on `label`, and job queues derive
 * job ids from `run_id` + a unit id (`unitKey`).
 */
export const MANIFEST_FORMAT = 1;

/**
 * What a manifest heads: answers (`run`), ResearchQA grades, VETSCORE results, generated questions,
 * RECIPER recipes, the state files of nugget folders (`nuggets generate`, `score-quality`,
 * `ginger`), a judge's labels on a human-judgment set (`judgments`), a judge card, and RAGTIME
 * report runs (`reports generate`, its manifest beside the run) and their ARGUE judgments
 * (`reports judge`, likewise), and the papers `collect openalex` downloaded (`collection`).
 */
export const MANIFEST_KINDS = [
  'run',
  'grades',
  'faithfulness',
  'questions',
  'recipes',
  'nuggets',
  'nugget-quality',
  'ginger',
  'report-run',
  'report-judgments',
  'judgments',
  'judge-card',
  'collection',
] as const;
export type ManifestKind = (typeof MANIFEST_KINDS)[number];

const Setting = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type SettingValue = z.infer<typeof Setting>;

/** One input a run depends on: its content hash, and facts for the reader (path, counts). */
const InputRef = z
  .object({ sha256: z.string().regex(/^[0-9a-f]{64}$/) })
  .catchall(z.union([z.string(), z.number(), z.boolean(), z.null()]));
export type InputRef = z.infer<typeof InputRef>;

export const RunManifestSchema = z.object({
  citegeist_manifest: z.literal(MANIFEST_FORMAT),
  kind: z.enum(MANIFEST_KINDS),
  /** The run's name in leaderboards and reports (`--label`, default derived from model + settings). */
  label: z.string().min(1),
  /** Hash of kind, label, settings, input hashes and version: stable across resumes. */
  run_id: z.string().regex(/^[0-9a-f]{16}$/),
  tool: z.object({ name: z.literal('citegeist'), version: z.string() }),
  created_at: z.string(),
  /** The settings that change results; compared on resume. */
  settings: z.record(z.string(), Setting),
  /** Content hashes of what the rows were made from; compared on resume (paths are not). */
  inputs: z.record(z.string(), InputRef),
});
export type RunManifest = z.infer<typeof RunManifestSchema>;

export interface ManifestSpec {
  kind: ManifestKind;
  /** `--label`; when absent, `defaultLabel` is used. */
  label?: string | undefined;
  defaultLabel: string;
  settings: Record<string, SettingValue>;
  inputs: Record<string, InputRef>;
  version: string;
  now?: () => Date;
}

/** Builds a manifest (its `run_id` from everything that identifies the run). */
export function createManifest(spec: ManifestSpec): RunManifest {
  const label = (spec.label ?? spec.defaultLabel).trim();
  if (label === '' || /[\r\n]/.test(label)) {
    throw new CitegeistError(
      'BAD_OPTION',
      `The run label ${quoteValue(spec.label)} is empty or spans lines.`,
      'Give --label a one-line name, e.g. --label "gpt-4.1-mini k=3".',
    );
  }
  const identity = {
    kind: spec.kind,
    label,
    settings: spec.settings,
    inputs: Object.fromEntries(Object.entries(spec.inputs).map(([k, v]) => [k, v.sha256])),
    version: spec.version,
  };
  return {
    citegeist_manifest: MANIFEST_FORMAT,
    kind: spec.kind,
    label,
    run_id: sha256Hex(canonicalJson(identity)).slice(0, 16),
    tool: { name: 'citegeist', version: spec.version },
    created_at: (spec.now?.() ?? citegeistNow()).toISOString(),
    settings: sortKeys(spec.settings),
    inputs: sortKeys(spec.inputs),
  };
}

/**
 * A label from a model and the settings that differ from their defaults, e.g.
 * `openai:gpt-4.1-mini (context=full, k=3)`; just the model when every setting is the default.
 */
export function defaultLabel(
  base: string,
  settings: Record<string, SettingValue>,
  defaults: Record<string, SettingValue>,
): string {
  const differing = Object.keys(defaults)
    .filter((k) => k in settings && settings[k] !== defaults[k])
    .map((k) => `${k}=${settings[k] === null ? 'none' : String(settings[k])}`);
  return differing.length === 0 ? base : `${base} (${differing.join(', ')})`;
}

/** True for a manifest record (any format version), false for a row. */
export function isManifestRecord(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'citegeist_manifest' in value;
}

/** Validates a manifest record read from `where` (file and line) into a manifest. */
export function parseManifest(value: unknown, where: string): RunManifest {
  const version = (value as { citegeist_manifest?: unknown }).citegeist_manifest;
  if (typeof version === 'number' && version > MANIFEST_FORMAT) {
    throw new CitegeistError(
      'MANIFEST_TOO_NEW',
      `${where} has a manifest of format ${version}; this citegeist reads format ${MANIFEST_FORMAT}.`,
      'Update citegeist, or write to another file.',
    );
  }
  const parsed = RunManifestSchema.safeParse(value);
  if (!parsed.success) {
    throw new CitegeistError(
      'RUN_FILE_CORRUPT',
      `${where} starts with a manifest record that is not valid (${parsed.error.issues[0]?.path.join('.') ?? ''}: ${parsed.error.issues[0]?.message ?? 'invalid'}).`,
      'The file was edited or damaged: write to a new file.',
    );
  }
  return parsed.data;
}

/**
 * What differs between the manifest in a file and the one a command would write, as readable
 * lines (`settings.k: 8 in the file, 3 now`); empty when a resume may proceed. Paths, counts and
 * creation times are not compared: only kind, label, version, settings and input hashes.
 */
export function manifestDifferences(inFile: RunManifest, now: RunManifest): string[] {
  const out: string[] = [];
  const cmp = (what: string, a: unknown, b: unknown) => {
    if (canonicalJson(a ?? null) === canonicalJson(b ?? null)) return;
    // Values cut to the same text (two long model URLs, say) are shown whole: the difference is the point.
    const long = show(a) === show(b);
    out.push(`${what}: ${show(a, long)} in the file, ${show(b, long)} now`);
  };
  cmp('kind', inFile.kind, now.kind);
  cmp('label', inFile.label, now.label);
  cmp('citegeist version', inFile.tool.version, now.tool.version);
  for (const k of union(inFile.settings, now.settings)) cmp(k, inFile.settings[k], now.settings[k]);
  for (const k of union(inFile.inputs, now.inputs)) {
    const [a, b] = [inFile.inputs[k]?.sha256, now.inputs[k]?.sha256];
    if (a !== b)
      out.push(
        `${k}: content sha256 ${a?.slice(0, 12) ?? '(absent)'}… in the file, ${b?.slice(0, 12) ?? '(absent)'}… now`,
      );
  }
  return out;
}

/** A job or unit id unique across runs: the run id and the unit id (URI-encoded: no `:` or `/`). */
export function unitKey(manifest: Pick<RunManifest, 'run_id'>, unitId: string): string {
  return `${manifest.run_id}-${encodeURIComponent(unitId)}`;
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * One hash over named items (papers by id, say): sha256 of the sorted `name NUL hash` lines, with
 * null for an item that is missing. Independent of the order the items were given in.
 */
export function hashItems(items: Iterable<[string, string | null]>): string {
  const lines = [...items]
    .map(([name, hash]) => `${name}\u0000${hash ?? 'missing'}`)
    .sort()
    .join('\n');
  return sha256Hex(lines);
}

/** The `papers` input of a manifest: one hash over each paper's text (null: not found), and counts. */
export function papersInput(texts: ReadonlyMap<string, string | null>, source: string): InputRef {
  const hashes = new Map(
    [...texts].map(([id, text]): [string, string | null] => [id, text === null ? null : sha256Hex(text)]),
  );
  return papersInputOfHashes(hashes, source);
}

/** `papersInput` from each paper's `sha256Hex` of its text (null: missing), already computed. */
export function papersInputOfHashes(hashes: ReadonlyMap<string, string | null>, source: string): InputRef {
  const items = [...hashes];
  return {
    sha256: hashItems(items),
    source,
    count: hashes.size,
    missing: items.filter(([, h]) => h === null).length,
  };
}

/**
 * JSON with object keys sorted at every level (a stable text for hashing and comparing): exactly
 * `JSON.stringify` of a copy whose objects have their own enumerable keys in sorted order (so an
 * object with `toJSON`, like a Date, is written as its own keys), built directly: a grades file
 * hashes every run row with it.
 */
export function canonicalJson(value: unknown): string {
  return canonical(value) as string;
}

function canonical(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') {
    // undefined, functions and symbols have no JSON (left out of objects, null in arrays).
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return undefined;
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += `${i > 0 ? ',' : ''}${canonical(value[i]) ?? 'null'}`;
    return `${out}]`;
  }
  let out = '';
  for (const key of Object.keys(value).sort()) {
    const item = canonical((value as Record<string, unknown>)[key]);
    if (item !== undefined) out += `${out === '' ? '' : ','}${JSON.stringify(key)}:${item}`;
  }
  return `{${out}}`;
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((k) => [k, record[k] as T]),
  );
}

function union(a: object, b: object): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
}

function show(value: unknown, whole = false): string {
  return value === undefined ? '(absent)' : quoteValue(value, whole ? 1000 : 40);
}
