/**
 * What the PDF reader saw on one page, for `citegeist show --layout <page>`: the column separators,
 * the regions in reading order, and the blocks with their kinds (headings with their level), so a
 * user can see why the text came out as it did.
 */
import { CitegeistError } from '../../core/index.js';
import { analysePages } from './pdf-analysis.js';
import { readPdfContent } from './pdf-engine.js';
import { layoutPages } from './pdf-lines.js';

export interface PageInspection {
  file: string;
  page: number;
  pages: number;
  width: number;
  height: number;
  separators: { x: number; top: number; bottom: number }[];
  regions: { order: number; x0: number; x1: number; top: number; bottom: number }[];
  blocks: {
    kind: string;
    level?: number;
    region: number;
    lines: { x0: number; x1: number; y: number; size: number; font: string; text: string }[];
  }[];
  furniture: { kind: string; text: string }[];
}

const r1 = (x: number) => Math.round(x * 10) / 10;

export async function inspectPdfPage(file: string, bytes: Uint8Array, page: number): Promise<PageInspection> {
  const content = await readPdfContent(file, bytes);
  if (!Number.isInteger(page) || page < 1 || page > content.pages.length) {
    throw new CitegeistError(
      'BAD_OPTION',
      `${file} has ${content.pages.length} page(s); --layout ${page} is not one of them.`,
      `Give a page number from 1 to ${content.pages.length}.`,
    );
  }
  const layouts = layoutPages(content.pages);
  const analysis = analysePages(layouts);
  const layout = layouts[page - 1]!;
  return {
    file,
    page,
    pages: content.pages.length,
    width: r1(layout.page.width),
    height: r1(layout.page.height),
    separators: layout.separators.map((s) => ({ x: r1(s.x), top: r1(s.top), bottom: r1(s.bottom) })),
    regions: layout.regions.map((r) => ({
      order: r.order,
      x0: r1(r.x0),
      x1: r1(r.x1),
      top: r1(r.top),
      bottom: r1(r.bottom),
    })),
    blocks: (analysis.pageBlocks[page - 1] ?? []).map((b) => ({
      kind: b.kind,
      ...(b.kind === 'heading' ? { level: b.level } : {}),
      region: b.region,
      lines: b.lines.map((l) => ({
        x0: r1(l.x0),
        x1: r1(l.x1),
        y: r1(l.y),
        size: r1(l.size),
        font: l.font,
        text: l.text,
      })),
    })),
    furniture: analysis.furniture.filter((f) => f.page === page).map((f) => ({ kind: f.kind, text: f.text })),
  };
}

/** The inspection as text: one line per separator and region, then each block with its kind. */
export function renderPageInspection(p: PageInspection): string {
  const out = [`${p.file}, page ${p.page} of ${p.pages} (${p.width} × ${p.height} pt)`];
  for (const s of p.separators) out.push(`separator at x ${s.x}, y ${s.top}–${s.bottom}`);
  for (const r of p.regions) out.push(`region ${r.order + 1}: x ${r.x0}–${r.x1}, y ${r.bottom}–${r.top}`);
  out.push('');
  for (const b of p.blocks) {
    const kind = b.level === undefined ? b.kind : `${b.kind} ${b.level}`;
    out.push(`[${kind}] region ${b.region + 1}, ${b.lines.length} line(s)`);
    for (const l of b.lines)
      out.push(
        `    ${String(l.y).padStart(6)} ${String(l.x0).padStart(6)} ${String(l.size).padStart(4)}  ${l.text}`,
      );
  }
  if (p.furniture.length > 0) {
    out.push('', 'furniture:');
    for (const f of p.furniture) out.push(`  [${f.kind}] ${f.text}`);
  }
  return `${out.join('\n')}\n`;
}
