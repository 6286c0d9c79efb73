/** One line of a JSONL file: the parsed value, or why it could not be parsed. */
export type JsonlLine =
  | { line: number; ok: true; value: unknown }
  | { line: number; ok: false; error: string; text: string };

/**
 * Parses JSONL text line by line; blank lines are skipped. A bad line is returned as an error entry
 * (with its 1-based line number), never thrown, so one bad row cannot abort a batch.
 */
export function parseJsonl(text: string): JsonlLine[] {
  const out: JsonlLine[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    if (raw.trim() === '') continue;
    try {
      out.push({ line: i + 1, ok: true, value: JSON.parse(raw) });
    } catch (error) {
      out.push({ line: i + 1, ok: false, error: (error as Error).message, text: raw });
    }
  }
  return out;
}
