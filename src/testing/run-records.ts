import { readFileSync } from 'node:fs';

/**
 * The records of a citegeist JSONL output (run, grades, faithfulness results): its manifest (the
 * first line, when it is one) and the rows after it. For tests that read what a command wrote.
 */
export function runRecords(path: string): {
  manifest: Record<string, unknown> | null;
  rows: Record<string, unknown>[];
} {
  const records = readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const first = records[0];
  if (first && 'citegeist_manifest' in first) return { manifest: first, rows: records.slice(1) };
  return { manifest: null, rows: records };
}
