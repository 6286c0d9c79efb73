import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CitegeistError } from '../core/index.js';
import type { ReportAssets } from './report-page.js';

let cached: ReportAssets | undefined;

/**
 * The report's hand-written script and style, `assets/report/report.js` and `report.css` of the
 * package (src/report and dist/report are both two levels below the package root). Read once.
 */
export function reportAssets(): ReportAssets {
  if (cached) return cached;
  const dir = join(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'), 'assets', 'report');
  try {
    cached = {
      script: readFileSync(join(dir, 'report.js'), 'utf8'),
      style: readFileSync(join(dir, 'report.css'), 'utf8'),
    };
  } catch (error) {
    throw new CitegeistError(
      'REPORT_ASSETS_MISSING',
      `The report's script and style are not in ${dir} (${(error as Error).message}).`,
      'Reinstall citegeist (the package ships assets/report).',
    );
  }
  return cached;
}
