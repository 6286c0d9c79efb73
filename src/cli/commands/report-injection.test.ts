import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, launchChromium } from '../../testing/browser.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

/** Twenty attempts to run script, each of which sets window.__xss (or loads something) if it ever runs. */
export const PAYLOADS = [
  '<script>window.__xss=(window.__xss||0)+1</script>',
  '<img src=x onerror="window.__xss=2">',
  '<svg onload="window.__xss=3"></svg>',
  '</script><script>window.__xss=4</script>',
  '<!--<script>window.__xss=5</script>-->',
  '"><img src=x onerror=window.__xss=6>',
  "'><svg/onload=window.__xss=7>",
  '<iframe srcdoc="<script>parent.__xss=8</script>"></iframe>',
  '<a href="javascript:window.__xss=9">click</a>',
  'javascript:window.__xss=10',
  '<math><mtext><table><mglyph><style><img src=x onerror=window.__xss=11>',
  '<details open ontoggle="window.__xss=12">',
  '\u2028\u2029</script ><script>window.__xss=13</script>',
  '<base href="javascript:window.__xss=14//">',
  '<meta http-equiv="refresh" content="0;url=javascript:window.__xss=15">',
  '<object data="javascript:window.__xss=16"></object>',
  '<body onload=window.__xss=17>',
  '<style>@import url(http://127.0.0.1:9/x.css)</style><link rel=stylesheet href=http://127.0.0.1:9/y.css>',
  '<input autofocus onfocus=window.__xss=19>',
  '<form action="javascript:window.__xss=20"><button>go</button></form>',
];

const P = (i: number) => PAYLOADS[i % PAYLOADS.length]!;
const jsonl = (rows: unknown[]) => rows.map((r) => `${JSON.stringify(r)}\n`).join('');

/** A workspace whose every text field (answers, quotes, paper, file name, labels…) carries the payloads. */
export async function injectionWorkspace(): Promise<{ dir: string; report: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'citegeist-report-xss-'));
  mkdirSync(join(dir, 'papers'));
  const paper = [
    `Title line ${P(0)}`,
    ...PAYLOADS.map((p, i) => `Sentence ${i} of the paper says ${p} clearly.`),
  ].join('\n\n');
  writeFileSync(join(dir, 'papers', 'p1.txt'), paper);
  const quote = (i: number) => `Sentence ${i} of the paper says ${P(i)} clearly.`;
  writeFileSync(
    join(dir, 'dataset.jsonl'),
    jsonl([
      {
        row_id: `r1${P(5)}`,
        paper_id: 'p1',
        domain: P(6),
        question_type: 'lookup',
        question: `What does it say? ${P(1)}`,
        expected_answer: P(2),
        expected_references: [{ section_label: P(3), alternatives: [quote(3), `${P(4)} not in the paper`] }],
      },
    ]),
  );
  const model = `model ${P(8)}`;
  writeFileSync(
    join(dir, 'run.jsonl'),
    jsonl([
      {
        row_id: `r1${P(5)}`,
        model,
        answer: `${PAYLOADS.join(' ')} [^1] [^2] [^3]`,
        citations: [
          { key: `1${P(9)}`, quote: quote(3) },
          { key: '2', quote: quote(12) },
          { key: '3', quote: `Sentence 13 of the paper says nothing like ${P(17)} at all, really not.` },
        ],
      },
    ]),
  );
  const { io, stderr } = memoryIo({ cwd: dir });
  const gradesName = `grades ${P(1)}.jsonl`;
  const graded = await runCli(
    ['grade', '--dataset', 'dataset.jsonl', '--run', 'run.jsonl', '--papers', 'papers', '--out', gradesName],
    io,
  );
  if (graded !== 0) throw new Error(`grade failed: ${stderr()}`);
  const claim = (i: number, verdict: string) => ({
    index: 0,
    text: P(i),
    status: 'scored',
    v: verdict === 'supported' ? 1 : 0,
    w: 3,
    verdict,
    rationale: P(i + 1),
    harm_rationale: P(i + 2),
    evidence_quote: P(i + 3),
    span: verdict === 'supported' ? { key: '1', start: 0, end: 4, text: P(i + 4), rule: 'exact' } : null,
    nearest:
      verdict === 'unverified' ? { key: '1', start: 0, end: 4, text: P(i + 5), similarity: 0.4 } : null,
  });
  writeFileSync(
    join(dir, 'faithfulness.jsonl'),
    jsonl([
      {
        citegeist_manifest: 1,
        kind: 'faithfulness',
        label: model,
        tool: { name: 'citegeist', version: P(7) },
        settings: {},
      },
      {
        id: `r1${P(5)}`,
        question: P(10),
        status: 'scored',
        score: 0.4,
        p: 2.426,
        judges: { verifier: P(11) },
        segments: [
          {
            index: 0,
            text: P(12),
            keys: [P(13)],
            status: 'scored',
            penalty: 0.6,
            claims: [claim(14, 'supported'), claim(0, 'unverified')],
          },
        ],
        failures: [P(19)],
      },
    ]),
  );
  writeFileSync(
    join(dir, 'judgments.jsonl'),
    jsonl([
      {
        report: { metadata: { topic_id: 'T1', run_id: P(15) } },
        judgments: [
          {
            segment_type: 'sentence',
            text: P(16),
            citations: [{ doc_id: P(17), text: P(18) }],
            judgments: [
              {
                judgment_type_id: 'SENTENCE_ATTESTED',
                response: { judgment_type_id: 'SENTENCE_ATTESTED', is_attested: true, evidence_quote: P(19) },
                provenance: { doc_id: P(17) },
              },
              {
                judgment_type_id: 'SENTENCE_ANSWERS_QUESTION',
                response: {
                  judgment_type_id: 'SENTENCE_ANSWERS_QUESTION',
                  matched_nuggets: [{ question_text: P(0), matched_answer: [P(1)] }],
                },
                provenance: { doc_id: P(17) },
              },
            ],
            failed_judgments: [
              { judgment_type_id: 'CITED_DOCUMENT_RELEVANCE', provenance: { doc_id: P(17) }, reason: P(2) },
            ],
          },
        ],
      },
    ]),
  );
  mkdirSync(join(dir, 'nuggets'));
  writeFileSync(
    join(dir, 'nuggets', 'T1.json'),
    JSON.stringify({
      query_id: 'T1',
      title_query: P(3),
      nugget_bank: {
        [P(0)]: { question: P(0), answers: { [P(1)]: { answer: P(1) } }, aggregator_type: 'AND' },
      },
    }),
  );
  const code = await runCli(
    [
      'report',
      '--grades',
      gradesName,
      '--runs',
      'run.jsonl',
      '--dataset',
      'dataset.jsonl',
      '--papers',
      'papers',
      '--faithfulness',
      'faithfulness.jsonl',
      '--judgments',
      'judgments.jsonl',
      '--nuggets',
      'nuggets',
      '--title',
      `Report ${P(0)}`,
      '--out',
      'report.html',
    ],
    io,
  );
  if (code !== 0) throw new Error(`report failed: ${stderr()}`);
  return { dir, report: join(dir, 'report.html') };
}

// Page-side code in page.evaluate runs in the browser: these name its globals for the type checker.
declare const location: { hash: string };
declare const document: {
  body: { innerText: string };
  title: string;
  scripts: { length: number };
  querySelectorAll(selector: string): Iterable<{
    tagName: string;
    outerHTML: string;
    textContent: string | null;
    attributes: Iterable<{ name: string }>;
  }>;
  addEventListener(
    type: string,
    listener: (e: { violatedDirective: string; blockedURI: string }) => void,
  ): void;
};
declare const window: Record<string, unknown>;

const missing = chromiumMissing();
if (missing) console.warn(`skipping the report's injection test: ${missing}`);

describe.skipIf(missing !== null)('injection payloads in a report', () => {
  let browser: Browser;
  let url: string;
  beforeAll(async () => {
    url = pathToFileURL((await injectionWorkspace()).report).href;
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => browser?.close());

  it('run no script in any view, load nothing, and show as the text they are', async () => {
    const page = await browser.newPage();
    const requests: string[] = [];
    const dialogs: string[] = [];
    page.on('request', (r) => {
      if (r.url().split('#')[0] !== url) requests.push(r.url());
    });
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    // Counted from inside the page: any markup the payloads became would trip the policy.
    await page.addInitScript(() => {
      (window as unknown as { __violations: string[] }).__violations = [];
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as unknown as { __violations: string[] }).__violations.push(
          `${e.violatedDirective} ${e.blockedURI}`,
        ),
      );
    });
    await page.goto(url);
    const rowId = `r1${PAYLOADS[5]}`;
    const views = [
      '#overview',
      '#rows',
      `#${new URLSearchParams({ row: rowId })}`,
      '#paper=0',
      '#paper=0&mark=0',
      '#papers',
      '#vetscore',
      '#vet=0',
      '#argue',
      '#report=0',
      '#report=0&nugget=0',
      `#row=${encodeURIComponent(PAYLOADS[1]!)}`,
      `#${encodeURIComponent(PAYLOADS[0]!)}`,
    ];
    const seen = new Set<string>();
    for (const hash of views) {
      await page.evaluate((h) => {
        location.hash = h;
      }, hash);
      await page.waitForTimeout(60);
      // biome-ignore lint/performance/useDomNodeTextContent: what is rendered; textContent would include the embedded JSON
      const text = await page.evaluate(() => document.body.innerText);
      for (const p of PAYLOADS) if (text.includes(p.trim())) seen.add(p);
      await page
        .locator('input[aria-label=search]')
        .count()
        .then(async (n) => {
          if (n) await page.fill('input[aria-label=search]', PAYLOADS[3]!);
        });
    }
    const inside = await page.evaluate(() => ({
      xss: (window as unknown as { __xss?: unknown }).__xss ?? null,
      violations: (window as unknown as { __violations: string[] }).__violations,
      handlers: [...document.querySelectorAll('*')].flatMap((el) =>
        [...el.attributes].filter((a) => a.name.startsWith('on')).map((a) => `${el.tagName} ${a.name}`),
      ),
      active: [
        ...document.querySelectorAll(
          'iframe, object, embed, base, form, input[autofocus], img, link, meta[http-equiv=refresh]',
        ),
      ].map((el) => el.outerHTML.slice(0, 80)),
      scripts: document.scripts.length,
      title: document.title,
    }));
    expect(inside).toEqual({
      xss: null,
      violations: [],
      handlers: [],
      active: [],
      scripts: 3,
      title: `Report ${PAYLOADS[0]}`,
    });
    expect(requests).toEqual([]);
    expect(dialogs).toEqual([]);
    // Every payload was on screen somewhere, as text (U+2028/9 render as line breaks, so trimmed).
    expect([...PAYLOADS].filter((p) => !seen.has(p) && !p.startsWith('\u2028'))).toEqual([]);
    await page.close();
  });
});
