/**
 * Report size and first paint: 5 runs × 1,000 ResearchQA-shaped rows over the 281 QASPER dev
 * papers (real text), graded by the real grader, built into one report with the default
 * `--paper-text auto` (which keeps the passages around each highlight at this size) and opened in
 * headless Chromium. Runs differ in how they quote: verbatim sentences, whole alternatives, edited
 * tails (prefix-only), fabricated quotes (misses with a nearest passage). Acceptance: under 10 MB,
 * first paint under 2 s. Printed: bytes, build time, and first contentful paint / DOMContentLoaded /
 * the rows view drawn, min and median over interleaved passes, against a 1 KB static page opened in
 * the same passes (the baseline), with the load average.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  type DatasetRow,
  DatasetRowSchema,
  type Document,
  type RunRow,
  RunRowSchema,
} from '../src/core/index.js';
import { gradeDeterministic } from '../src/grade/index.js';
import {
  buildReportData,
  type LooseGrade,
  looseGradeRow,
  renderReportPage,
  reportAssets,
} from '../src/report/index.js';
import { createRandom } from '../src/stats/index.js';
import { chromiumMissing, launchChromium } from '../src/testing/browser.js';
import { sharedDataPath } from '../src/testing/index.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 1000);
const MODELS = ['gpt-like', 'claude-like', 'qwen-7b', 'llama-8b', 'extractive'];
const PASSES = 5;

const sentencesOf = (text: string) =>
  text
    .split(/\n\n+/)
    .filter((p) => !p.startsWith('#') && p.length > 200)
    .flatMap((p) => p.split(/(?<=[.!?])\s+(?=[A-Z])/))
    .filter((s) => s.length > 40);

function documentOf(id: string, text: string): Document {
  const paragraphs = [];
  let at = 0;
  for (const block of text.split(/\n\n/)) {
    paragraphs.push({
      id: `${id}#${paragraphs.length}`,
      start: at,
      end: at + block.length,
      sectionId: null,
      page: null,
      kind: 'body' as const,
    });
    at += block.length + 2;
  }
  return {
    id,
    title: text.split('\n', 1)[0]!.replace(/^#\s*/, ''),
    source: 'markdown',
    language: 'en',
    meta: {},
    text,
    pages: [],
    sections: [],
    paragraphs,
    furniture: [],
    markers: [],
  };
}

function build(papers: Map<string, string>) {
  const rand = createRandom(11);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const ids = [...papers.keys()];
  const sentences = new Map(ids.map((id) => [id, sentencesOf(papers.get(id)!)]));
  const dataset: DatasetRow[] = [];
  const runs = new Map<string, RunRow[]>(MODELS.map((m) => [m, []]));
  for (let r = 0; r < ROWS; r++) {
    const id = ids[r % ids.length]!;
    const ss = sentences.get(id)!;
    const groups = Array.from({ length: 1 + Math.floor(rand() * 2) }, (_, g) => ({
      section_label: `Section ${g + 1}`,
      alternatives: Array.from({ length: 2 }, () => pick(ss)),
    }));
    const rowId = `${id}_q${r}`;
    const type = pick(['lookup', 'comprehension', 'multi_hop', 'adversarial'] as const);
    dataset.push(
      DatasetRowSchema.parse({
        row_id: rowId,
        paper_id: id,
        domain: pick(['computer science', 'linguistics']),
        question_type: type,
        question: `What does the paper report about ${pick(ss).slice(0, 60)}?`,
        expected_answer: pick(ss),
        expected_references: type === 'adversarial' ? [] : groups,
        expected_refusal: type === 'adversarial' ? true : null,
      }),
    );
    for (const [m, model] of MODELS.entries()) {
      const quotes = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => {
        const k = rand() + m * 0.05;
        const alt = pick(pick(groups).alternatives);
        if (k < 0.45) return alt;
        if (k < 0.7) return pick(ss);
        if (k < 0.9) return `${alt.slice(0, 90)} and the results were clearly better than reported`;
        return `We fabricate ${Math.floor(rand() * 1000)} results on ${pick(ss).slice(0, 60)}`;
      });
      runs.get(model)!.push(
        RunRowSchema.parse({
          row_id: rowId,
          model,
          answer: quotes.map((q, i) => `${q.slice(0, 120)} [^${i + 1}]`).join(' '),
          citations: quotes.map((q, i) => ({ key: `${i + 1}`, quote: q })),
          latency_ms: 500 + rand() * 3000,
          usage: { input_tokens: 4000, output_tokens: 200 },
          cost_usd: 0.001 + rand() * 0.002,
        }),
      );
    }
  }
  return { dataset, runs };
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `min ${s[0]!.toFixed(0)} ms, median ${s[Math.floor(s.length / 2)]!.toFixed(0)} ms`;
};

export default async function (): Promise<void> {
  const missing = chromiumMissing();
  if (missing) {
    console.log(`skipped: ${missing}`);
    return;
  }
  const dir = sharedDataPath('qasper-dev', 'papers');
  const texts = new Map(
    readdirSync(dir).map((f) => [f.replace(/\.txt$/, ''), readFileSync(join(dir, f), 'utf8')]),
  );
  const { dataset, runs } = build(texts);
  const grades: { name: string; manifest: null; rows: LooseGrade[] }[] = [];
  for (const [model, rows] of runs) {
    const graded = await gradeDeterministic(
      rows.map((run, i) => ({ row: dataset[i]!, run })),
      (id) => texts.get(id) ?? null,
      { match: 'researchqa', quoteMode: 'researchqa' },
    );
    grades.push({
      name: `${model}.grades.jsonl`,
      manifest: null,
      rows: graded.map((g) => looseGradeRow(JSON.parse(JSON.stringify(g))) as LooseGrade),
    });
  }
  let t = performance.now();
  const data = buildReportData({
    title: `bench: ${MODELS.length} runs × ${ROWS} rows`,
    tool: 'citegeist bench',
    inputs: [],
    grades: {
      grades,
      runs: [...runs].map(([model, rows]) => ({ name: `${model}.jsonl`, manifest: null, rows })),
      dataset,
      papers: new Map([...texts].map(([id, text]) => [id, documentOf(id, text)])),
      paperText: 'auto',
    },
  });
  const html = renderReportPage(data, reportAssets());
  const buildMs = performance.now() - t;
  const file = join(tmpdir(), `citegeist-report-bench-${process.pid}.html`);
  const baseline = join(tmpdir(), `citegeist-report-bench-${process.pid}-baseline.html`);
  writeFileSync(file, html);
  writeFileSync(baseline, `<!doctype html><title>baseline</title><p>${'baseline '.repeat(100)}</p>`);
  const bytes = Buffer.byteLength(html);
  const cites = data.answers.reduce((n, a) => n + a.citations.length, 0);
  console.log(
    `${data.runs.length} runs × ${data.questions.length} rows = ${data.answers.length} answers, ${cites} citations, ${data.papers.length} papers (${data.papers[0]?.excerpted ? 'excerpts' : 'full text'}): ` +
      `${(bytes / 1e6).toFixed(2)} MB (limit 10 MB) built in ${(buildMs / 1000).toFixed(1)} s`,
  );

  const browser = await launchChromium();
  const times = { fcp: [] as number[], dcl: [] as number[], rows: [] as number[], baseFcp: [] as number[] };
  try {
    for (let pass = 0; pass < PASSES; pass++) {
      for (const which of ['baseline', 'report'] as const) {
        const page = await browser.newPage();
        t = performance.now();
        await page.goto(pathToFileURL(which === 'report' ? file : baseline).href, { waitUntil: 'load' });
        // Page-side code as strings: the bench runs under tsx, whose helpers do not exist in the page.
        const paint = (await page.evaluate(`new Promise((done) => {
          const read = () => {
            const p = performance.getEntriesByName('first-contentful-paint')[0];
            const nav = performance.getEntriesByType('navigation')[0];
            if (p) done({ fcp: p.startTime, dcl: nav ? nav.domContentLoadedEventEnd : -1 });
            else requestAnimationFrame(read);
          };
          read();
        })`)) as { fcp: number; dcl: number };
        if (which === 'baseline') times.baseFcp.push(paint.fcp);
        else {
          times.fcp.push(paint.fcp);
          times.dcl.push(paint.dcl);
          const rowsMs = (await page.evaluate(`new Promise((done) => {
            const start = performance.now();
            location.hash = '#rows';
            const drawn = () =>
              document.querySelector('#row-list tbody tr') ? done(performance.now() - start) : requestAnimationFrame(drawn);
            requestAnimationFrame(drawn);
          })`)) as number;
          times.rows.push(rowsMs);
        }
        await page.close();
      }
    }
  } finally {
    await browser.close();
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(
    `first contentful paint: ${stats(times.fcp)} (limit 2,000 ms); baseline 1 KB page ${stats(times.baseFcp)}; ratio of medians ${(median(times.fcp) / median(times.baseFcp)).toFixed(1)}×`,
  );
  console.log(`DOMContentLoaded: ${stats(times.dcl)}; rows view drawn after the click: ${stats(times.rows)}`);
  console.log(
    `${PASSES} interleaved passes; load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
}
