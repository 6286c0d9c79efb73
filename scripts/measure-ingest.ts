/**
 * `npm run measure:ingest`: PDF ingest against the gold structures in `../shared/data/pdf-gold/`
 * (issue 16 acceptance). Runs an extractor on every PDF of MANIFEST.tsv, writes the shape
 * `../shared/tools/score_ingest.py` reads into a folder, calls the scorer per split and the
 * olmOCR-bench text tests, and prints the tables with the goals.
 *
 *   npx tsx scripts/measure-ingest.ts [--engine citegeist|pdfjs-raw|pdftotext] [--split dev|validation]
 *                                     [--out DIR] [--json]
 *
 * `citegeist` (default) writes `{sections, furniture}` JSON from the Document; `pdfjs-raw` (pdfjs
 * getTextContent items joined) and `pdftotext` (poppler, default and `-layout` off) write plain
 * text, which the scorer reads as all body with guessed headings.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import { EXTRACTOR_VERSION, rawPdfText, readDocumentFile } from '../src/ingest/index.js';
import { sharedDataPath } from '../src/testing/shared-data.js';
import { VERSION } from '../src/version.js';
import { parseBatch, readingText, type ScoreRow, scorerJson } from './ingest-gold.js';

type Engine = 'citegeist' | 'pdfjs-raw' | 'pdftotext';

interface ManifestRow {
  file: string;
  split: string;
  columns: string;
  goldKind: string;
  gold: string;
}

const GOLD = sharedDataPath('pdf-gold');
const SCORER = sharedDataPath('..', 'tools', 'score_ingest.py');

function manifest(): ManifestRow[] {
  const [header, ...lines] = readFileSync(join(GOLD, 'MANIFEST.tsv'), 'utf8').trim().split(/\r?\n/);
  const cols = header!.split('\t');
  return lines.map((line) => {
    const cells = line.split('\t');
    const get = (name: string) => cells[cols.indexOf(name)] ?? '';
    return {
      file: get('file'),
      split: get('split'),
      columns: get('columns'),
      goldKind: get('gold_kind'),
      gold: get('gold_primary'),
    };
  });
}

const stem = (file: string) => basename(file, extname(file));

/** Per PDF: bibliography entries found, citation markers found and linked to an entry. */
const bibliography = new Map<string, { entries: number; citations: number; linked: number }>();

async function extract(engine: Engine, pdf: string, out: string): Promise<number> {
  const t = performance.now();
  const name = stem(pdf);
  if (engine === 'citegeist') {
    const [doc] = await readDocumentFile(pdf, name);
    if (!doc) throw new Error(`no document from ${pdf}`);
    const citations = doc.markers.filter((m) => m.kind === 'citation');
    bibliography.set(name, {
      entries: doc.paragraphs.filter((p) => p.kind === 'reference').length,
      citations: citations.length,
      linked: citations.filter((m) => m.targets.length > 0).length,
    });
    writeFileSync(join(out, `${name}.json`), JSON.stringify(scorerJson(doc)));
    writeFileSync(join(out, `${name}.txt`), readingText(doc));
  } else if (engine === 'pdfjs-raw') {
    const { text } = await rawPdfText(pdf, new Uint8Array(readFileSync(pdf)));
    writeFileSync(join(out, `${name}.txt`), text);
  } else {
    execFileSync('pdftotext', ['-enc', 'UTF-8', pdf, join(out, `${name}.txt`)]);
  }
  return performance.now() - t;
}

function python(args: string[]): string {
  const r = spawnSync('python3', [SCORER, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`score_ingest.py ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

const f3 = (v: number | null | undefined) => (v === null || v === undefined ? '–' : v.toFixed(3));

function renderSplit(
  split: string,
  rows: ScoreRow[],
  macro: ScoreRow | null,
  twoColumn: Set<string>,
): string {
  const lines = [
    `### ${split}`,
    '',
    '| file | heading F1 | body recall | body precision | contiguous | Kendall τ | furniture leakage |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    const mark = twoColumn.has(r.file) ? ' (2-col)' : '';
    lines.push(
      `| ${r.file}${mark} | ${f3(r.headingF1)} | ${f3(r.bodyRecall)} | ${f3(r.bodyPrecision)} | ${f3(r.contiguous)} | ${f3(r.kendallTau)} | ${f3(r.leakage)} |`,
    );
  }
  if (macro) {
    lines.push(
      `| **macro average** | **${f3(macro.headingF1)}** | **${f3(macro.bodyRecall)}** | **${f3(macro.bodyPrecision)}** | **${f3(macro.contiguous)}** | **${f3(macro.kendallTau)}** | **${f3(macro.leakage)}** |`,
    );
    const goal = (ok: boolean) => (ok ? 'met' : 'NOT met');
    const worst2col = Math.min(...rows.filter((r) => twoColumn.has(r.file)).map((r) => r.contiguous ?? 0));
    lines.push(
      '',
      `goals: heading F1 ≥ 0.90 ${goal((macro.headingF1 ?? 0) >= 0.9)}; body recall ≥ 0.99 ${goal((macro.bodyRecall ?? 0) >= 0.99)}; ` +
        `body precision ≥ 0.97 ${goal((macro.bodyPrecision ?? 0) >= 0.97)}; contiguous ≥ 0.95 ${goal((macro.contiguous ?? 0) >= 0.95)}` +
        (Number.isFinite(worst2col)
          ? ` (two-column papers ≥ 0.90 ${goal(worst2col >= 0.9)}: worst ${f3(worst2col)})`
          : '') +
        `; furniture leakage ≤ 0.02 ${goal((macro.leakage ?? 1) <= 0.02)}`,
    );
  }
  return lines.join('\n');
}

/**
 * Bibliography entries against the gold's (JATS and S2ORC gold list entries; GROBID's training TEI
 * lists blocks, not entries, so it is left out) and the share of citation markers linked.
 */
function renderBibliography(rows: readonly ManifestRow[], split: string): string {
  const lines = [
    `### bibliography (${split})`,
    '',
    '| file | entries found | gold entries | citation markers | linked to an entry |',
    '|---|---:|---:|---:|---:|',
  ];
  for (const row of rows) {
    if (!row.split.startsWith(split) || !/^(JATS|SILVER)/.test(row.goldKind)) continue;
    const found = bibliography.get(stem(row.file));
    if (!found) continue;
    const gold = JSON.parse(python(['--dump-gold', join(GOLD, row.gold)])) as { references: string[] };
    const share = found.citations === 0 ? '–' : `${((100 * found.linked) / found.citations).toFixed(0)}%`;
    lines.push(
      `| ${row.file} | ${found.entries} | ${gold.references.length} | ${found.citations} | ${share} |`,
    );
  }
  return lines.join('\n');
}

function renderOlmocr(
  result: Record<string, { passed: number; total: number } | Record<string, number>>,
): string {
  const parts: string[] = [];
  for (const [type, v] of Object.entries(result)) {
    if (type === 'skipped') continue;
    const r = v as { passed: number; total: number };
    parts.push(`${type} ${r.passed}/${r.total}`);
  }
  const skipped = Object.entries(result.skipped ?? {})
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  return `olmOCR-bench text tests: ${parts.join(', ')}${skipped ? ` (skipped: ${skipped})` : ''}`;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const opt = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const engine = (opt('--engine') ?? 'citegeist') as Engine;
  if (!['citegeist', 'pdfjs-raw', 'pdftotext'].includes(engine))
    throw new Error(`unknown --engine ${engine}`);
  const splits = opt('--split') ? [opt('--split')!] : ['dev', 'validation'];
  const out = opt('--out') ?? mkdtempSync(join(tmpdir(), 'citegeist-ingest-'));
  mkdirSync(out, { recursive: true });
  const rows = manifest();
  let ms = 0;
  for (const row of rows) ms += await extract(engine, join(GOLD, row.file), out);
  const suffix = engine === 'citegeist' ? '.json' : '.txt';
  const scorerHash = createHash('sha256').update(readFileSync(SCORER)).digest('hex').slice(0, 12);
  console.log(
    `# PDF ingest against ../shared/data/pdf-gold (engine ${engine}; citegeist ${VERSION}, extractor ${EXTRACTOR_VERSION}; ` +
      `score_ingest.py sha256 ${scorerHash}; ${rows.length} PDFs extracted in ${(ms / 1000).toFixed(1)} s; predictions in ${out})`,
  );
  const twoColumn = new Set(rows.filter((r) => /^two-column/.test(r.columns)).map((r) => r.file));
  const report: Record<string, unknown> = { engine, out };
  for (const split of splits) {
    const { rows: scored, macro } = parseBatch(
      python([
        '--batch',
        join(GOLD, 'MANIFEST.tsv'),
        '--pred-dir',
        out,
        '--pred-suffix',
        suffix,
        '--split',
        split,
      ]),
    );
    report[split] = { rows: scored, macro };
    console.log(`\n${renderSplit(split, scored, macro, twoColumn)}`);
    if (engine === 'citegeist') console.log(`\n${renderBibliography(rows, split)}`);
  }
  const olmocr = JSON.parse(
    python([
      '--olmocr-tests',
      join(GOLD, 'olmocr-bench-subset', 'dataset.subset.jsonl'),
      '--pred-dir',
      out,
      '--pred-suffix',
      '.txt',
    ]),
  );
  report.olmocr = olmocr;
  console.log(`\n${renderOlmocr(olmocr)}`);
  if (args.includes('--json')) console.log(JSON.stringify(report, null, 2));
}

await main();
