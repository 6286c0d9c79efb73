import { describe, expect, it } from 'vitest';
import type { DatasetRow } from '../core/index.js';
import { gradesPairwise } from '../grade/index.js';
import { buildReportData } from './build-report.js';
import { looseGradeRow } from './loose-grade-row.js';
import { renderOverview } from './overview-html.js';
import { deltaClass } from './pairwise-matrix.js';
import { pFmt, signed } from './pairwise-text.js';
import { countTicks, groupedMeansSvg, histogramSvg } from './svg-charts.js';

const grade = (v: Record<string, unknown>) => {
  const g = looseGradeRow(v);
  if (typeof g === 'string') throw new Error(g);
  return g;
};
const HOSTILE = '<script>window.__x=1</script>';
const ids = Array.from({ length: 12 }, (_, i) => `q${String(i).padStart(2, '0')}`);
// Run A scores 1 everywhere; B scores 0.5 on every other row (6 of 12 differ, all the same way).
const rowsOf = (label: string, value: (i: number) => number) =>
  ids.map((id, i) =>
    grade({
      row_id: id,
      model: label,
      label,
      question_type: i % 2 ? 'comprehension' : 'lookup',
      domain: 'd',
      citation_precision: value(i),
      citation_accuracy: 1,
    }),
  );
const dataset = (order: readonly string[]) =>
  order.map(
    (id) =>
      ({
        row_id: id,
        paper_id: 'p',
        question_type: 'lookup',
        domain: 'd',
        expected_references: [],
      }) as unknown as DatasetRow,
  );

function twoRuns(b = `B ${HOSTILE}`, datasetOrder = ids) {
  return buildReportData({
    title: 't',
    tool: 'citegeist test',
    inputs: [],
    seed: 7,
    grades: {
      grades: [
        { name: 'a.jsonl', manifest: null, rows: rowsOf('A', () => 1) },
        // Rows in reverse: the report still numbers questions in dataset order.
        { name: 'b.jsonl', manifest: null, rows: rowsOf(b, (i) => (i % 2 ? 0.5 : 1)).reverse() },
      ],
      runs: [],
      dataset: dataset(datasetOrder),
      papers: new Map(),
      paperText: 'none',
    },
  });
}

describe('the overview', () => {
  const data = twoRuns();
  const html = renderOverview(data);

  it('shows what each metric means under the leaderboard, open, so a printout explains itself', () => {
    const legend = /<details class="metric-legend" open>([\s\S]*?)<\/details>/.exec(html)?.[1] ?? '';
    expect(legend).toContain('What the columns mean');
    for (const m of data.metrics) {
      expect(legend).toContain(`<dt>${m.label}</dt>`);
      expect(legend).toContain(m.description.slice(0, 40).replace(/&/g, '&amp;').replace(/</g, '&lt;'));
    }
    expect(html.indexOf('metric-legend')).toBeGreaterThan(html.indexOf('id="leaderboard"'));
    expect(html.indexOf('metric-legend')).toBeLessThan(html.indexOf('id="breakdown"'));
  });

  it('numbers questions in dataset order, whatever order the grades files list them in', () => {
    expect(data.questions.map((q) => q.id)).toEqual(ids);
    const shuffled = [...ids.slice(6), ...ids.slice(0, 6)];
    expect(twoRuns('B', shuffled).questions.map((q) => q.id)).toEqual(shuffled);
  });
});

describe('the pairwise matrix', () => {
  const data = twoRuns();
  const html = renderOverview(data);
  const section = /<section id="pairwise"[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
  // The figures leaderboard prints: the same function on the same rows and seed.
  const rows = data.answers.length
    ? [...rowsOf('A', () => 1), ...rowsOf(`B ${HOSTILE}`, (i) => (i % 2 ? 0.5 : 1))]
    : [];
  const table = gradesPairwise(
    rows.map((g) => g.row),
    { seed: 7 },
  );

  it('leaves the unranked metrics (an uncertified judge) out of the table and its correction', () => {
    const all = new Set(table.rows.map((r) => r.metric));
    expect(all.has('citation_precision')).toBe(true);
    const without = gradesPairwise(
      rows.map((g) => g.row),
      { seed: 7 },
      new Set(['citation_precision']),
    );
    expect(without.rows.some((r) => r.metric === 'citation_precision')).toBe(false);
    expect(without.rows.length).toBe(table.rows.filter((r) => r.metric !== 'citation_precision').length);
  });

  it('is shown for two runs, with the test, correction, resamples and seed stated', () => {
    expect(section).toContain('Pairwise comparisons');
    expect(section).toContain('paired randomization test (exact), 10,000 resamples, seed 7');
    expect(section).toContain('Holm-adjusted over');
    expect(section).toContain('adjusted p &lt; 0.05');
  });

  it("shows leaderboard's Δ and p in each cell (row − column, the mirror cell with its sign turned)", () => {
    const row = table.rows.find((r) => r.metric === 'citation_precision')!;
    expect(row.comparison.delta.estimate).toBeCloseTo(0.25, 12);
    const matrix = /<caption>Citation precision[\s\S]*?<\/table>/.exec(section)?.[0] ?? '';
    const cells = [
      ...matrix.matchAll(
        /<td class="num ([^"]*)" title="([^"]*)"><a class="pw-link" href="([^"]*)">([^<]*)/g,
      ),
    ];
    expect(cells.map((c) => c[4])).toEqual([
      signed(row.comparison.delta.estimate),
      signed(-row.comparison.delta.estimate!),
    ]);
    expect(cells[0]![2]).toContain(`p = ${pFmt(row.comparison.test.p)}`);
    expect(cells[0]![2]).toContain(`adjusted p = ${pFmt(row.adjustedP)}`);
    expect(cells[0]![2]).toContain(`${row.comparison.n} pairs`);
    expect(cells[0]![1]).toContain(deltaClass(0.25, { range: [0, 1], higherIsBetter: true }));
    expect(cells[0]![1]).toBe(`dp3${row.significant ? ' sig' : ''}`);
    expect(cells[1]![1]).toBe(`dn3${row.significant ? ' sig' : ''}`);
    expect(cells[0]![3]).toBe('#rows&amp;runs=0.1&amp;metric=citation_precision&amp;differ=0.1');
  });

  it('escapes run labels everywhere, also in the hover text', () => {
    expect(section).not.toContain('<script>');
    expect(section).toContain('B &lt;script&gt;window.__x=1&lt;/script&gt;');
  });

  it('says which runs are significantly worse than the best, and which could not be compared', () => {
    const rowsC = ids.map((id) => grade({ row_id: id, model: 'C', label: 'C', citation_accuracy: 1 }));
    const many = Array.from({ length: 40 }, (_, i) => `m${i}`);
    const lots = (label: string, v: number) =>
      many.map((id, i) =>
        grade({ row_id: id, model: label, label, citation_precision: i % 4 ? v : v - 0.1 }),
      );
    const d = buildReportData({
      title: 't',
      tool: 'x',
      inputs: [],
      grades: {
        grades: [
          { name: 'a', manifest: null, rows: [...rowsOf('A', () => 1), ...lots('A', 1)] },
          { name: 'b', manifest: null, rows: [...rowsOf('B', () => 0.2), ...lots('B', 0.2)] },
          { name: 'c', manifest: null, rows: rowsC },
        ],
        runs: [],
        dataset: null,
        papers: new Map(),
        paperText: 'none',
      },
    });
    const out = renderOverview(d);
    expect(out).toContain('Best: A; significantly worse: B; not compared (no p-value): C.');
  });

  it('is left out for one run', () => {
    const one = buildReportData({
      title: 't',
      tool: 'x',
      inputs: [],
      grades: {
        grades: [{ name: 'a', manifest: null, rows: rowsOf('A', () => 1) }],
        runs: [],
        dataset: null,
        papers: new Map(),
        paperText: 'none',
      },
    });
    expect(one.pairwise).toBeNull();
    expect(renderOverview(one)).not.toContain('id="pairwise"');
  });

  it.each([
    [0.01, true, 'd0'],
    [0.05, true, 'dp1'],
    [-0.2, true, 'dn2'],
    [1.2, false, 'dn3'],
    [-2, false, 'dp3'],
    [null, true, 'dna'],
  ] as const)('colours Δ %s (higher is better: %s) as %s', (delta, higherIsBetter, cls) => {
    expect(deltaClass(delta, { range: higherIsBetter ? [0, 1] : [1, 5], higherIsBetter })).toBe(cls);
  });
});

describe('charts', () => {
  const groups = ['comprehension', 'machine_learning_and_evaluation_of_systems', HOSTILE].map((group) => ({
    group,
    bars: [{ label: 'A', colour: 0, mean: 0.5, ci: [0.4, 0.6] as [number, number], n: 3 }],
  }));
  const svg = groupedMeansSvg('t', [0, 1], groups);

  it('have gridlines and labels at quarters of the range', () => {
    expect(svg.match(/<line class="grid"/g)).toHaveLength(5);
    for (const v of ['0', '0.25', '0.5', '0.75', '1'])
      expect(svg).toMatch(new RegExp(`class="tick" text-anchor="end">${v}</text>`));
    const five = groupedMeansSvg('t', [1, 5], groups.slice(0, 1));
    for (const v of ['1', '2', '3', '4', '5']) expect(five).toContain(`text-anchor="end">${v}</text>`);
  });

  it('turn category labels rather than cut them, and give each full name on hover', () => {
    expect(svg).toContain('>comprehension<title>comprehension</title>');
    expect(svg).toContain('rotate(-40');
    expect(svg).toContain(
      '>machine_learning_and_evalua…<title>machine_learning_and_evaluation_of_systems</title>',
    );
    expect(svg).not.toContain('<script>');
    const short = groupedMeansSvg('t', [0, 1], [{ ...groups[0]!, group: 'lookup' }]);
    expect(short).not.toContain('rotate(');
    expect(short).toContain('text-anchor="middle" class="tick cat">lookup<title>lookup</title>');
  });

  it('size the plot for turned labels so none leaves the picture', () => {
    const [, w, h] = /viewBox="0 0 (\d+) (\d+)"/.exec(svg)!.map(Number);
    expect(h).toBeGreaterThan(150);
    expect(w).toBeGreaterThanOrEqual(34 + 3 * 70);
  });

  it.each([
    [1, [0, 1]],
    [4, [0, 1, 2, 3, 4]],
    [7, [0, 2, 4, 6, 8]],
    [60, [0, 20, 40, 60]],
    [1234, [0, 500, 1000, 1500]],
  ])('count axes of max %i step by 1, 2 or 5 × 10^k: %j', (max, ticks) => {
    expect(countTicks(max)).toEqual(ticks);
  });

  it('draw histogram gridlines at those counts', () => {
    const hist = histogramSvg('h', ['a', 'b'], [{ label: 'A', colour: 0, values: [7, 3] }]);
    expect(hist.match(/<line class="grid"/g)).toHaveLength(5);
    expect(hist).toContain('text-anchor="end">8</text>');
  });

  it('sit in a box that scrolls, so 51 domains do not widen the page', () => {
    const d = twoRuns();
    for (const r of d.runs) {
      for (let i = 0; i < 51; i++) r.byDomain[`domain ${i}`] = r.overall;
    }
    const html = renderOverview(d);
    const byDomain = html.slice(html.indexOf('<h3>By domain</h3>'));
    expect(byDomain).toMatch(
      /^<h3>By domain<\/h3><div class="charts"><figure><div class="chart-box"><svg class="chart" viewBox="0 0 (\d+)/,
    );
    expect(Number(/viewBox="0 0 (\d+)/.exec(byDomain)![1])).toBeGreaterThan(3000);
  });
});
