import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, launchChromium } from '../../testing/browser.js';
import { reportWorkspace } from '../../testing/report-workspace.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

// Page-side code in page.evaluate runs in the browser: these name its globals for the type checker.
declare const location: { hash: string };
declare const window: { scrollBy(x: number, y: number): void; innerHeight: number };
declare const document: {
  documentElement: { scrollWidth: number; clientWidth: number };
  querySelector(s: string): { getBoundingClientRect(): Rect } | null;
};
interface Rect {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

const missing = chromiumMissing();
if (missing) console.warn(`skipping the report's view tests: ${missing}`);

async function writeReport(options: Parameters<typeof reportWorkspace>[0]) {
  const ws = reportWorkspace(options);
  const { io, stderr } = memoryIo({ cwd: ws.dir });
  const code = await runCli([...ws.args, '--out', 'report.html'], io);
  if (code !== 0) throw new Error(`report failed: ${stderr()}`);
  return { ...ws, url: pathToFileURL(join(ws.dir, 'report.html')).href };
}

/** A page that collects its errors; `go` changes the hash and waits for the view. */
async function open(browser: Browser, url: string, width = 1300) {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(url);
  const go = async (hash: string) => {
    await page.evaluate((h) => {
      location.hash = h;
    }, hash);
    await page.waitForTimeout(60);
  };
  return { page, errors, go };
}

const rowOrder = (page: Page) =>
  page.locator('#row-list tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-row')));

describe.skipIf(missing !== null)('report views in Chromium', () => {
  let browser: Browser;
  let small: Awaited<ReturnType<typeof writeReport>>;
  let wide: Awaited<ReturnType<typeof writeReport>>;

  beforeAll(async () => {
    small = await writeReport({});
    wide = await writeReport({ rows: 60, domains: 51, longId: 100_000, faithfulness: true });
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => browser?.close());

  it('say what is missing when the address names a section or item the report does not hold', async () => {
    const { page, errors, go } = await open(browser, small.url);
    const cases: [string, RegExp][] = [
      ['#vetscore', /no VETSCORE section.*--faithfulness/],
      ['#vet=0', /no VETSCORE section/],
      ['#argue', /no ARGUE section.*--judgments/],
      ['#report=0', /no ARGUE section/],
      ['#report=nonexistent', /no ARGUE section/],
      ['#row=nope', /No row with the id nope in this report \(it has 12 rows\)/],
      ['#paper=99', /No paper 99 in this report: its papers are numbered 0 to 0/],
    ];
    for (const [hash, message] of cases) {
      await go(hash);
      expect(await page.locator('#missing').textContent(), hash).toMatch(message);
    }
    await go('#no-such-view');
    expect(await page.locator('#route-note').textContent()).toMatch(/names no view or section.*no-such-view/);
    await go('#overview');
    expect(await page.locator('#route-note').isVisible()).toBe(false);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('name the parts of a filter address they did not understand, and ignore only those', async () => {
    const { page, errors, go } = await open(browser, small.url);
    await go('#rows&below=abc&metric=nonexistent&runs=0.7&sort=sideways&colour=red');
    const said = await page.locator('#filter-problems').textContent();
    for (const part of ['below=abc', 'metric=nonexistent', 'runs=0.7', 'sort=sideways', 'colour=red'])
      expect(said).toContain(part);
    expect(said).toMatch(
      /not a metric of this report \(citation_precision, section_coverage, citation_accuracy\)/,
    );
    // runs=0.7 keeps run 0; nothing else filters: every question is listed.
    expect(await page.locator('#row-count').textContent()).toBe('12 of 12 questions');
    await go('#rows&type=lookup');
    expect(await page.locator('#filter-problems').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('sort equal disagreements in dataset order (0.6 − 0.4 and 0.5 − 0.3 are one spread)', async () => {
    const { page, go } = await open(browser, small.url);
    await go('#rows&metric=citation_precision&sort=spread');
    // Rows 3, 6, 9 disagree by 0.5; rows 0, 1, 2 by 0.2 (in three float spellings); the rest agree.
    expect(await rowOrder(page)).toEqual([
      'q03',
      'q06',
      'q09',
      'q00',
      'q01',
      'q02',
      'q04',
      'q05',
      'q07',
      'q08',
      'q10',
      'q11',
    ]);
    await go('#rows&metric=citation_precision&sort=asc');
    // Lowest first: q01 (0.3), q00 (0.4), then the rows whose lowest is 0.5, in dataset order.
    expect((await rowOrder(page)).slice(0, 6)).toEqual(['q01', 'q00', 'q02', 'q03', 'q06', 'q09']);
    await page.close();
  });

  it('show citation markers as chips that lead to their citation, and mark a key with none', async () => {
    const { page, errors, go } = await open(browser, small.url);
    await go('#row=q01');
    const answer = page.locator('article[data-run="1"]');
    expect(await answer.locator('.answer-text').textContent()).not.toContain('[^');
    expect(await answer.locator('a.cite-chip').allInnerTexts()).toEqual(['1', '1', '2', '9']);
    expect(await answer.locator('a.cite-chip.bad').allInnerTexts()).toEqual(['9']);
    expect(await answer.locator('a.cite-chip').nth(2).getAttribute('title')).toContain(
      'Sentence 2 of the paper',
    );
    await answer.locator('a.cite-chip').nth(2).click();
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#row=q01&run=1&cite=2');
    const target = page.locator('article[data-run="1"] li.cite.target');
    await expect.poll(() => target.count()).toBe(1);
    expect(await target.getAttribute('data-key')).toBe('2');
    expect(await target.isVisible()).toBe(true);
    const box = (await target.boundingBox())!;
    expect(box.y).toBeGreaterThan(40);
    expect(box.y + box.height).toBeLessThan(900);
    expect(errors).toEqual([]);
    await page.close();
  });

  it.each([1300, 700])('keep the cited-by panel off the paper text (viewport %i px)', async (width) => {
    const { page, go } = await open(browser, small.url, width);
    await go('#paper=0&mark=3');
    const overlap = () =>
      page.evaluate(() => {
        const a = document.querySelector('aside.cited-by')!.getBoundingClientRect();
        const t = document.querySelector('.paper-text')!.getBoundingClientRect();
        // The part of the text on screen, below the page header.
        const top = Math.max(t.top, 50);
        const bottom = Math.min(t.bottom, window.innerHeight);
        const w = Math.min(a.right, t.right) - Math.max(a.left, t.left);
        const h = Math.min(a.bottom, bottom) - Math.max(a.top, top);
        return w > 0 && h > 0 ? w * h : 0;
      });
    expect(await overlap()).toBe(0);
    for (const dy of [-2000, 150, 400]) {
      await page.evaluate((y) => window.scrollBy(0, y), dy);
      expect(await overlap()).toBe(0);
    }
    await page.close();
  });

  it('show a pairwise matrix whose cells lead to the questions where the two runs differ', async () => {
    const { page, errors } = await open(browser, small.url);
    const matrices = page.locator('#pairwise table.pairwise');
    expect(await matrices.count()).toBe(3);
    const cell = matrices.first().locator('a.pw-link').first();
    expect(await cell.textContent()).toMatch(/^\+0\.\d{3}\*?$/);
    await cell.click();
    await expect.poll(() => page.locator('#row-list tbody tr').count()).toBe(6);
    expect(await rowOrder(page)).toEqual(['q00', 'q01', 'q02', 'q03', 'q06', 'q09']);
    expect(await page.locator('select[aria-label=differ]').inputValue()).toBe('0.1');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('never grow wider than the window: a 100,000-character row id, 51 domains, long VETSCORE claims', async () => {
    const { page, errors, go } = await open(browser, wide.url);
    const width = () => page.evaluate(() => document.documentElement.scrollWidth);
    for (const hash of [
      '#overview',
      '#rows',
      `#${new URLSearchParams({ row: wide.ids[0]! })}`,
      '#vetscore',
      '#vet=0',
      '#papers',
      '#paper=0&mark=0',
    ]) {
      await go(hash);
      expect(await width(), hash.slice(0, 40)).toBeLessThanOrEqual(1300);
    }
    await go('#rows');
    const first = page.locator('#row-list tbody tr').first().locator('td a');
    expect((await first.textContent())!.length).toBeLessThan(200);
    expect(await first.locator('span.cut').getAttribute('title')).toBe(wide.ids[0]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
