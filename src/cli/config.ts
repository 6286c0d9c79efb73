import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { CitegeistError, describeIssues } from '../core/index.js';
import { readTextFile } from '../io/index.js';

/**
 * The workspace configuration (`citegeist.config.json` or `.yaml`). Flags override it; secrets come
 * only from the environment. Parsed once here; the rest of the code receives plain values.
 */
export const ConfigSchema = z
  .object({
    corpus: z.string().optional(),
    model: z.string().optional(),
    judge: z.string().optional(),
    embedder: z.string().optional(),
    concurrency: z.number().int().positive().optional(),
    budget: z.number().nonnegative().optional(),
    cache: z.string().optional(),
    /** A Redis URL: model calls run on queue workers (`--queue`). */
    queue: z.string().optional(),
    quoteMode: z.enum(['researchqa', 'strict']).optional(),
    prices: z
      .record(z.string(), z.object({ input: z.number().nonnegative(), output: z.number().nonnegative() }))
      .optional(),
  })
  .strict();
export type Config = z.infer<typeof ConfigSchema>;

export const CONFIG_FILES = ['citegeist.config.json', 'citegeist.config.yaml', 'citegeist.config.yml'];

/** Loads the config file named by `--config`, else the first of CONFIG_FILES in `cwd`, else `{}`. */
export function loadConfig(cwd: string, explicit?: string): { config: Config; file: string | null } {
  const file = explicit ? resolve(cwd, explicit) : CONFIG_FILES.map((f) => join(cwd, f)).find(existsSync);
  if (!file) return { config: {}, file: null };
  if (!existsSync(file)) {
    throw new CitegeistError('FILE_NOT_FOUND', `The config file ${file} does not exist.`, 'Check --config.');
  }
  let raw: unknown;
  try {
    const text = readTextFile(file, 'config file', { maxBytes: 1 << 20 });
    raw = file.endsWith('.json') ? JSON.parse(text) : parseYaml(text, { logLevel: 'error' });
  } catch (error) {
    throw new CitegeistError(
      'CONFIG_INVALID',
      `The config file ${file} could not be parsed: ${(error as Error).message}.`,
      'Fix its syntax (JSON or YAML).',
    );
  }
  const result = ConfigSchema.safeParse(raw ?? {});
  if (!result.success) {
    throw new CitegeistError(
      'CONFIG_INVALID',
      `The config file ${file} is invalid: ${describeIssues(result.error)}.`,
      `Valid keys: ${Object.keys(ConfigSchema.shape).join(', ')}.`,
    );
  }
  return { config: result.data, file };
}
