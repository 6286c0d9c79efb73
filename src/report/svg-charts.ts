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

/** Grouped bars of counts per bin (one colour per run): a score distribution. */
export function histogramSvg(title: string, binLabels: readonly string[], series: readonly Series[]): string {
  const width = 340;
  const height = 130;
  const [left, bottom, top] = [30, 22, 8];
  const plotH = height - bottom - top;
  const max = Math.max(1, ...series.flatMap((s) => s.values));
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
  const ticks = binLabels
    .map((b, i) =>
      i % Math.ceil(binLabels.length / 5) === 0 || i === binLabels.length - 1
        ? `<text x="${f(left + i * groupW + groupW / 2)}" y="${height - 8}" class="tick" text-anchor="middle">${e(b)}</text>`
        : '',
    )
    .join('');
  return `<svg class="chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${e(title)}"><title>${e(title)}</title>
<line class="axis" x1="${left}" y1="${top + plotH}" x2="${width - 2}" y2="${top + plotH}"/><line class="axis" x1="${left}" y1="${top}" x2="${left}" y2="${top + plotH}"/>
<text x="${left - 4}" y="${top + 8}" class="tick" text-anchor="end">${max}</text><text x="${left - 4}" y="${top + plotH}" class="tick" text-anchor="end">0</text>
${bars}${ticks}</svg>`;
}

export interface GroupedMean {
  group: string;
  bars: { label: string; colour: number; mean: number | null; ci: [number, number] | null; n: number }[];
}

/** Mean per group (question type, domain) and run, with 95% CI whiskers, over the metric's range. */
export function groupedMeansSvg(
  title: string,
  range: [number, number],
  groups: readonly GroupedMean[],
): string {
  const runs = Math.max(1, ...groups.map((g) => g.bars.length));
  const barW = Math.max(7, Math.min(20, Math.floor(56 / runs)));
  const groupW = Math.max(70, runs * barW + 14);
  const [left, bottom, top] = [34, 34, 8];
  const width = Math.max(220, left + groups.length * groupW + 6);
  const height = 150;
  const plotH = height - bottom - top;
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
    parts.push(
      `<text x="${f(x0 + (g.bars.length * barW) / 2)}" y="${height - 20}" class="tick" text-anchor="middle">${e(g.group.length > 12 ? `${g.group.slice(0, 11)}…` : g.group)}<title>${e(g.group)}</title></text>`,
    );
  }
  return `<svg class="chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${e(title)}"><title>${e(title)}</title>
<line class="axis" x1="${left}" y1="${top + plotH}" x2="${width - 2}" y2="${top + plotH}"/><line class="axis" x1="${left}" y1="${top}" x2="${left}" y2="${top + plotH}"/>
<text x="${left - 4}" y="${top + 8}" class="tick" text-anchor="end">${hi}</text><text x="${left - 4}" y="${top + plotH}" class="tick" text-anchor="end">${lo}</text>
${parts.join('')}</svg>`;
}

/** A colour swatch for legends and table headers. */
export function swatch(colour: number): string {
  return `<svg class="swatch" width="10" height="10" aria-hidden="true"><rect class="${cls(colour)}" width="10" height="10"/></svg>`;
}
