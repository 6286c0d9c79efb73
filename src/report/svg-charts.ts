import { escapeHtml as e } from './escape-html.js';

/**
 * Small inline SVG charts that read without JavaScript: colours come from CSS classes (`c0`…`c7`,
 * one per run), every bar has a `<title>` with its exact value, and axes carry their labels. No
 * style attributes, so the page's Content-Security-Policy needs no 'unsafe-inline'.
 */

export const PALETTE_SIZE = 8;
const cls = (colour: number) => `c${colour % PALETTE_SIZE}`;
const f = (x: number) => (Math.round(x * 10) / 10).toString();

export interface Series {
  label: string;
  colour: number;
  values: number[];
}

/** Gridlines with their labels at `values` (plot coordinates by `y`), under the bars. */
function gridlines(
  values: readonly number[],
  y: (v: number) => number,
  x1: number,
  x2: number,
  text: (v: number) => string,
) {
  return values
    .map(
      (v) =>
        `<line class="grid" x1="${x1}" y1="${f(y(v))}" x2="${x2}" y2="${f(y(v))}"/><text x="${x1 - 4}" y="${f(y(v) + 3)}" class="tick" text-anchor="end">${text(v)}</text>`,
    )
    .join('');
}

/** Integer gridline values from 0 to at least `max`: 1, 2 or 5 × 10^k apart, about four steps. */
export function countTicks(max: number): number[] {
  const raw = Math.max(1, max / 4);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? raw);
  const top = Math.ceil(max / step) * step;
  return Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step);
}

/** Grouped bars of counts per bin (one colour per run): a score distribution. */
export function histogramSvg(title: string, binLabels: readonly string[], series: readonly Series[]): string {
  const width = 340;
  const height = 130;
  const [left, bottom, top] = [30, 22, 8];
  const plotH = height - bottom - top;
  const ticks = countTicks(Math.max(1, ...series.flatMap((s) => s.values)));
  const max = ticks[ticks.length - 1]!;
  const y = (v: number) => top + plotH - (v / max) * plotH;
  const groupW = (width - left - 4) / binLabels.length;
  const barW = Math.max(1, (groupW - 2) / Math.max(1, series.length));
  const bars = series
    .map((s, si) =>
      s.values
        .map((v, bi) => {
          const h = (v / max) * plotH;
          const x = left + bi * groupW + 1 + si * barW;
          return `<rect class="${cls(s.colour)}" x="${f(x)}" y="${f(top + plotH - h)}" width="${f(barW)}" height="${f(h)}"><title>${e(s.label)}: ${v} row(s) in ${e(binLabels[bi] ?? '')}</title></rect>`;
        })
        .join(''),
    )
    .join('');
  const labels = binLabels
    .map((b, i) =>
      i % Math.ceil(binLabels.length / 5) === 0 || i === binLabels.length - 1
        ? `<text x="${f(left + i * groupW + groupW / 2)}" y="${height - 8}" class="tick" text-anchor="middle">${e(b)}</text>`
        : '',
    )
    .join('');
  return `<svg class="chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${e(title)}"><title>${e(title)}</title>
${gridlines(ticks, y, left, width - 2, String)}<line class="axis" x1="${left}" y1="${top + plotH}" x2="${width - 2}" y2="${top + plotH}"/><line class="axis" x1="${left}" y1="${top}" x2="${left}" y2="${top + plotH}"/>
${bars}${labels}</svg>`;
}

export interface GroupedMean {
  group: string;
  bars: { label: string; colour: number; mean: number | null; ci: [number, number] | null; n: number }[];
}

// Category labels: about 5.4 px a character at the 9 px tick font; longer ones are cut (the full
// name is on hover), and when one does not fit its group the labels are turned 40°.
const CHAR_W = 5.4;
const LABEL_MAX = 28;
const TURN = (40 * Math.PI) / 180;
const shortLabel = (s: string) => (s.length > LABEL_MAX ? `${s.slice(0, LABEL_MAX - 1)}…` : s);

/**
 * Mean per group (question type, domain) and run, with 95% CI whiskers, over the metric's range,
 * on gridlines at quarters of the range. Labels that do not fit their group are turned, never cut
 * short of 28 characters, and each carries its full name as a tooltip.
 */
export function groupedMeansSvg(
  title: string,
  range: [number, number],
  groups: readonly GroupedMean[],
): string {
  const runs = Math.max(1, ...groups.map((g) => g.bars.length));
  const barW = Math.max(7, Math.min(20, Math.floor(56 / runs)));
  const groupW = Math.max(70, runs * barW + 14);
  const labelW = groups.map((g) => shortLabel(g.group).length * CHAR_W);
  const turned = labelW.some((w) => w > groupW - 6);
  const longest = Math.max(0, ...labelW);
  const top = 8;
  const bottom = turned ? Math.ceil(18 + longest * Math.sin(TURN)) : 34;
  const left = turned ? Math.max(34, Math.ceil((labelW[0] ?? 0) * Math.cos(TURN) - groupW / 2 + 4)) : 34;
  const width = Math.max(220, left + groups.length * groupW + 6);
  const plotH = 116 - top;
  const height = top + plotH + bottom;
  const [lo, hi] = range;
  const y = (v: number) => top + plotH - ((Math.min(hi, Math.max(lo, v)) - lo) / (hi - lo)) * plotH;
  const parts: string[] = [];
  for (const [gi, g] of groups.entries()) {
    const x0 = left + gi * groupW + (groupW - g.bars.length * barW) / 2;
    for (const [bi, b] of g.bars.entries()) {
      if (b.mean === null) continue;
      const x = x0 + bi * barW;
      const ci = b.ci ? ` [${b.ci[0].toFixed(3)}, ${b.ci[1].toFixed(3)}]` : '';
      parts.push(
        `<rect class="${cls(b.colour)}" x="${f(x)}" y="${f(y(b.mean))}" width="${barW - 2}" height="${f(y(lo) - y(b.mean))}"><title>${e(b.label)} · ${e(g.group)}: ${b.mean.toFixed(3)}${ci} n=${b.n}</title></rect>`,
      );
      if (b.ci) {
        const cx = f(x + (barW - 2) / 2);
        parts.push(
          `<line class="whisker" x1="${cx}" x2="${cx}" y1="${f(y(b.ci[0]))}" y2="${f(y(b.ci[1]))}"/>`,
        );
      }
    }
    const cx = f(left + gi * groupW + groupW / 2);
    const ly = top + plotH + (turned ? 10 : 14);
    const place = turned
      ? `x="${cx}" y="${ly}" text-anchor="end" transform="rotate(-40 ${cx} ${ly})"`
      : `x="${cx}" y="${ly}" text-anchor="middle"`;
    parts.push(
      `<text ${place} class="tick cat">${e(shortLabel(g.group))}<title>${e(g.group)}</title></text>`,
    );
  }
  const grid = [0, 1, 2, 3, 4].map((k) => lo + ((hi - lo) * k) / 4);
  return `<svg class="chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${e(title)}"><title>${e(title)}</title>
${gridlines(grid, y, left, width - 2, (v) => String(+v.toFixed(3)))}<line class="axis" x1="${left}" y1="${top + plotH}" x2="${width - 2}" y2="${top + plotH}"/><line class="axis" x1="${left}" y1="${top}" x2="${left}" y2="${top + plotH}"/>
${parts.join('')}</svg>`;
}

/** A colour swatch for legends and table headers. */
export function swatch(colour: number): string {
  return `<svg class="swatch" width="10" height="10" aria-hidden="true"><rect class="${cls(colour)}" width="10" height="10"/></svg>`;
}
