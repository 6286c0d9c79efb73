import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CitegeistError } from '../../core/index.js';
import { readTextFile } from '../../io/index.js';

/** The harm rubrics shipped in `assets/rubrics/` (`harm-<name>.md`). */
export const HARM_RUBRICS = ['veterinary', 'human-medicine', 'generic'] as const;
export type HarmRubricName = (typeof HARM_RUBRICS)[number];
export const DEFAULT_HARM_RUBRIC: HarmRubricName = 'veterinary';

/** A harm rubric: its text and where it came from (recorded with every result). */
export interface HarmRubric {
  name: string;
  path: string;
  text: string;
}

/**
 * The package's `assets/rubrics` folder, found by walking up from this module, so it resolves from
 * `src/grade/vetscore/` (tsx, tests) and from `dist/grade/vetscore/` (the installed package).
 */
export function rubricsFolder(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'assets', 'rubrics');
    if (existsSync(join(candidate, `harm-${DEFAULT_HARM_RUBRIC}.md`))) return candidate;
    const up = dirname(dir);
    if (up === dir) {
      throw new CitegeistError(
        'ASSETS_MISSING',
        'The bundled harm rubrics (assets/rubrics) were not found above the citegeist module folder.',
        'Reinstall citegeist, or pass a rubric file with --rubric <file>.',
      );
    }
    dir = up;
  }
}

/** Loads a shipped rubric by name (`veterinary`, `human-medicine`, `generic`) or a rubric file by path. */
export function loadHarmRubric(nameOrPath: string = DEFAULT_HARM_RUBRIC, cwd = process.cwd()): HarmRubric {
  if ((HARM_RUBRICS as readonly string[]).includes(nameOrPath)) {
    const path = join(rubricsFolder(), `harm-${nameOrPath}.md`);
    return { name: nameOrPath, path, text: readTextFile(path, 'harm rubric') };
  }
  const path = isAbsolute(nameOrPath) ? nameOrPath : resolve(cwd, nameOrPath);
  if (!existsSync(path)) {
    throw new CitegeistError(
      'FILE_NOT_FOUND',
      `The harm rubric "${nameOrPath}" is neither a bundled rubric nor an existing file (${path}).`,
      `Use one of ${HARM_RUBRICS.join(', ')} or the path of a Markdown rubric file.`,
    );
  }
  const text = readTextFile(path, 'harm rubric');
  if (text.trim() === '') {
    throw new CitegeistError('EMPTY_FILE', `The harm rubric ${path} is empty.`, 'Write its 1–5 anchors.');
  }
  return { name: path, path, text };
}
