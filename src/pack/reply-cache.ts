/** The packed replies as a reply cache a replay's steps are served from (`--cache FILE --cache-only`). */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { ResponseCache } from '../llm/index.js';
import type { PackedReply } from './pack-format.js';

/** Writes `replies` into a fresh SQLite reply cache at `file`. */
export function writeReplyCache(file: string, replies: readonly PackedReply[]): void {
  mkdirSync(dirname(file), { recursive: true });
  const cache = new ResponseCache(file);
  try {
    for (const r of replies) {
      const usage =
        r.input_tokens === null || r.output_tokens === null
          ? null
          : { inputTokens: r.input_tokens, outputTokens: r.output_tokens };
      cache.set(r.key, r.model, { text: r.text, usage });
    }
  } finally {
    cache.close();
  }
}
