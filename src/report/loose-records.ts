/**
 * Loose reading of the records a report is built from. Reports read files written by several
 * versions of citegeist (and by the published harnesses): a field that is absent takes its neutral
 * value, a record that is not an object is skipped and counted, and nothing is ever invented.
 */

/** The manifest record some files start with (`{citegeist_manifest, kind, label, settings, tool}`). */
export interface ManifestInfo {
  kind: string | null;
  label: string | null;
  settings: Record<string, unknown> | null;
  version: string | null;
  createdAt: string | null;
}

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
export const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const obj = (v: unknown): Json => (isObject(v) ? v : {});

/** The manifest of a record, or null when the record is a row. */
export function manifestOf(value: unknown): ManifestInfo | null {
  if (!isObject(value) || !('citegeist_manifest' in value)) return null;
  const tool = obj(value.tool);
  return {
    kind: str(value.kind),
    label: str(value.label),
    settings: isObject(value.settings) ? value.settings : null,
    version: str(tool.version),
    createdAt: str(value.created_at),
  };
}

/** A parsed line: its value, or why it could not be read. */
export type RecordLine =
  | { line: number; ok: true; value: unknown }
  | { line: number; ok: false; error: string };

/** The records of one file with its manifest split off and unreadable lines counted. */
export interface SplitRecords {
  manifest: ManifestInfo | null;
  rows: { line: number; value: Json }[];
  skipped: { line: number; reason: string }[];
}

/** Splits parsed lines into a manifest (first record only), object rows and skipped lines. */
export function splitRecords(lines: readonly RecordLine[]): SplitRecords {
  const out: SplitRecords = { manifest: null, rows: [], skipped: [] };
  for (const [i, entry] of lines.entries()) {
    if (!entry.ok) {
      out.skipped.push({ line: entry.line, reason: `not JSON (${entry.error})` });
      continue;
    }
    const manifest = manifestOf(entry.value);
    if (manifest && i === 0) out.manifest = manifest;
    else if (manifest) out.skipped.push({ line: entry.line, reason: 'a second manifest record' });
    else if (isObject(entry.value)) out.rows.push({ line: entry.line, value: entry.value });
    else out.skipped.push({ line: entry.line, reason: 'not a JSON object' });
  }
  return out;
}

/** A record value as a string key, or null (numbers are accepted: some layouts number their ids). */
export function idOf(v: unknown): string | null {
  if (typeof v === 'string' && v !== '') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}
