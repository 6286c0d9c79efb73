import { createHash } from 'node:crypto';
import { compactData } from './compact-data.js';
import { escapeHtml as e } from './escape-html.js';
import { renderOverview } from './overview-html.js';
import type { ReportData } from './report-data.js';

/** The page's script and style (shipped in `assets/report/`). */
export interface ReportAssets {
  script: string;
  style: string;
}

/**
 * How the report was built, embedded for `citegeist serve` (which rebuilds the report when an
 * input changes): the command's options and each input file with its content hash. Paths are
 * relative to the report's folder.
 */
export interface ReportRecipe {
  options: Record<string, unknown>;
  inputs: { path: string; sha256: string; size: number }[];
}

export const RECIPE_ELEMENT_ID = 'citegeist-report-recipe';

/**
 * The recipe options that name files, relative to the report: lists of files, and single files.
 * Everything that writes, reads, rebases or watches a recipe's paths uses these two lists.
 */
export const RECIPE_PATH_LISTS = ['grades', 'runs', 'faithfulness', 'judgments', 'judgeCard'] as const;
export const RECIPE_PATHS = ['dataset', 'corpus', 'papers', 'nuggets'] as const;

/**
 * JSON for a `<script type="application/json">` block: `<`, `>` and `&` are written as `\u003c`,
 * `\u003e`, `\u0026` (so no text can close the element or open a comment), and U+2028/U+2029 as
 * escapes. `JSON.parse` of the element's text gives the value back unchanged.
 */
export function embedJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * The Content-Security-Policy of a report: nothing may load from anywhere (`default-src 'none'`),
 * the one script and the one style are allowed by their hashes (so no injected script or inline
 * event handler can run), images only as data URIs, no `<base>`, no form submission.
 */
export function reportCsp(assets: ReportAssets): string {
  return [
    "default-src 'none'",
    `script-src ${sha256(assets.script)}`,
    `style-src ${sha256(assets.style)}`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/**
 * One self-contained HTML file: the overview as static HTML with inline SVG (readable without
 * JavaScript), the data as JSON, and the hand-written script that renders rows, papers, VETSCORE
 * and ARGUE views from that data. No external resource of any kind.
 */
export function renderReportPage(data: ReportData, assets: ReportAssets, recipe?: ReportRecipe): string {
  const recipeBlock = recipe
    ? `<script type="application/json" id="${RECIPE_ELEMENT_ID}">${embedJson(recipe)}</script>\n`
    : '';
  const tabs = [
    ['overview', 'Overview'],
    ['rows', 'Rows'],
    ['papers', 'Papers'],
    ...(data.vetscore ? [['vetscore', 'VETSCORE']] : []),
    ...(data.argue ? [['argue', 'ARGUE']] : []),
  ]
    .map(([id, label]) => `<a href="#${id}" data-tab="${id}">${label}</a>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${e(reportCsp(assets))}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>${e(data.title)}</title>
${recipeBlock}<style>${assets.style}</style></head>
<body><header class="top"><h1>${e(data.title)}</h1><nav id="tabs" aria-label="views">${tabs}</nav></header>
<main>
<section id="overview" class="view">
${renderOverview(data)}
</section>
<section id="app" class="view" hidden aria-live="polite"></section>
<noscript><p class="hint">The overview above reads without JavaScript. Rows, papers and judgments are rendered by the page's own script from the data embedded in this file: open it in a browser with scripts allowed.</p></noscript>
</main>
<script type="application/json" id="report-data">${embedJson(compactData(data))}</script>
<script>${assets.script}</script>
</body></html>
`;
}
