import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CitegeistError } from '../core/index.js';
import type { ReportAssets } from './report-page.js';

let cached: ReportAssets | undefined;

/**
 * The page's script parts, in order: they share one scope (`core.js` reads the data and holds the
 * helpers and indexes, one file per view, `main.js` routes and starts), joined into one script.
 */
export const SCRIPT_PARTS = ['core', 'rows', 'row', 'papers', 'vetscore', 'argue', 'main'];

/**
 * The report's hand-written script and style, `assets/report/script/*.js` and `report.css` of the
 * package (src/report and dist/report are both two levels below the package root). Read once.
 */
export function reportAssets(): ReportAssets {
  if (cached) return cached;
  const dir = join(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'), 'assets', 'report');
  try {
    cached = {
      script: `(() => {\n'use strict';\n${SCRIPT_PARTS.map((p) => readFileSync(join(dir, 'script', `${p}.js`), 'utf8')).join('\n')}})();\n`,
      style: readFileSync(join(dir, 'report.css'), 'utf8'),
    };
  } catch (error) {
    throw new CitegeistError(
      'ASSETS_MISSING',
      `The report's script and style are not in ${dir} (${(error as Error).message}).`,
      'Reinstall citegeist (the package ships assets/report).',
    );
  }
  return cached;
}
