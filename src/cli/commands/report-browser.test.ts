import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, launchChromium } from '../../testing/browser.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

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
if (missing) console.warn(`skipping the report's browser tests: ${missing}`);

interface Watch {
  errors: string[];
  requests: string[];
}

/** Opens a page that records console errors, page errors and every request not for the file itself. */
async function open(browser: Browser, url: string): Promise<{ page: Page; watch: Watch }> {
  const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
  const watch: Watch = { errors: [], requests: [] };
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') watch.errors.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => watch.errors.push(`pageerror: ${e.message}`));
  page.on('request', (r) => {
    if (r.url().split('#')[0] !== url.split('#')[0]) watch.requests.push(r.url());
  });
  await page.goto(url);
  return { page, watch };
}

const data = (html: string) =>
  JSON.parse(/<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html)![1]!);

describe.skipIf(missing !== null)('the demo report in Chromium', () => {
  let browser: Browser;
  let url: string;
  let report: {
    runs: unknown[];
    questions: { id: string; type: string; p: number | null }[];
    answers: {
      q: number;
      scores: Record<string, number | null>;
      citations: { quote: string; m: number | null }[];
    }[];
    papers: { marks: [number, number, string][]; parts: [number, string][] }[];
  };

  beforeAll(async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'citegeist-report-browser-'));
    const { io } = memoryIo({ cwd });
    expect(await runCli(['demo'], io)).toBe(0);
    const file = join(cwd, 'demo-output', 'report.html');
    report = data(readFileSync(file, 'utf8'));
    url = pathToFileURL(file).href;
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => browser?.close());

  it('loads with no console error and no network request, and reads without the script', async () => {
    const { page, watch } = await open(browser, url);
    await page.waitForSelector('#leaderboard table');
    for (const hash of ['#rows', `#row=${report.questions[0]!.id}`, '#papers', '#paper=0', '#overview']) {
      await page.evaluate((h) => {
        location.hash = h;
      }, hash);
      await page.waitForTimeout(50);
    }
    expect(watch.errors).toEqual([]);
    expect(watch.requests).toEqual([]);
    const noScript = await browser.newPage({ javaScriptEnabled: false });
    await noScript.goto(url);
    // one leaderboard row per run of the demo (the extractive system and the lead baseline)
    expect(await noScript.locator('#leaderboard table tbody tr').count()).toBe(report.runs.length);
    expect(await noScript.locator('#distributions svg.chart').count()).toBeGreaterThan(0);
    await noScript.close();
    await page.close();
  });

  it('filters by type, threshold, search and sort, and keeps the filter in a deep link', async () => {
    const { page } = await open(browser, `${url}#rows`);
    const count = () => page.locator('#row-list tbody tr').count();
    expect(await count()).toBe(report.questions.length);
    await page.selectOption('select[aria-label=type]', 'lookup');
    expect(await count()).toBe(report.questions.filter((q) => q.type === 'lookup').length);
    await page.selectOption('select[aria-label=type]', '');
    await page.selectOption('select[aria-label=metric]', 'section_coverage');
    await page.fill('input[aria-label=threshold]', '0.5');
    const below = new Set(
      report.answers
        .filter((a) => (a.scores.section_coverage ?? 1) < 0.5)
        .map((a) => report.questions[a.q]!.id),
    );
    await expect.poll(count).toBe(below.size);
    const shown = await page
      .locator('#row-list tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-row')));
    expect(new Set(shown)).toEqual(below);
    const deepLink = await page.evaluate(() => location.hash);
    expect(deepLink).toContain('below=0.5');
    await page.fill('input[aria-label=threshold]', '');
    await page.fill('input[aria-label=search]', 'SPECTER');
    // Both inputs are debounced: wait for the search to apply, not only the cleared threshold.
    await expect.poll(count).toBeLessThan(report.questions.length);
    expect(await count()).toBeGreaterThan(0);
    await page.fill('input[aria-label=search]', '');
    await page.selectOption('select[aria-label=sort]', 'asc');
    const first = await page.locator('#row-list tbody tr').first().getAttribute('data-row');
    const min = Math.min(...report.answers.map((a) => a.scores.section_coverage ?? 2));
    // "lowest first" orders questions by their lowest value over the runs
    const lowestOfFirst = Math.min(
      ...report.answers
        .filter((a) => report.questions[a.q]!.id === first)
        .map((a) => a.scores.section_coverage ?? 2),
    );
    expect(lowestOfFirst).toBe(min);
    const fresh = await browser.newPage();
    await fresh.goto(`${url}${deepLink}`);
    expect(await fresh.locator('#row-list tbody tr').count()).toBe(below.size);
    await fresh.close();
    await page.close();
  });

  it('links a citation to its highlighted span in the paper', async () => {
    const a = report.answers.find((x) => (x.citations ?? []).some((c) => (c.m ?? null) !== null))!;
    const q = report.questions[a.q]!;
    const { page, watch } = await open(browser, `${url}#row=${encodeURIComponent(q.id)}`);
    const citation = a.citations!.find((c) => (c.m ?? null) !== null)!;
    await page.locator('.cite a', { hasText: 'show in paper' }).first().click();
    const mark = page.locator('mark.target');
    await expect.poll(() => mark.count()).toBe(1);
    expect(await page.evaluate(() => location.hash)).toBe(`#paper=${q.p}&mark=${citation.m}`);
    expect(await mark.isVisible()).toBe(true);
    const box = (await mark.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y).toBeLessThan(900);
    // The highlighted text is the paper's text at the mark's span, and the quote is that text.
    const [start, end] = report.papers[q.p!]!.marks[citation.m!]!;
    const paperText = report.papers[q.p!]!.parts[0]![1];
    const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
    const marked = await page.evaluate(
      (m) => [...document.querySelectorAll(`mark[data-marks~="${m}"]`)].map((x) => x.textContent).join(''),
      citation.m,
    );
    expect(squash(marked)).toBe(squash(paperText.slice(start, end)));
    expect(squash(citation.quote)).toContain(squash(paperText.slice(start, end)).slice(0, 40));
    expect(watch.errors).toEqual([]);
    await page.close();
  });
});
