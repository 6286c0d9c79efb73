/**
 * The bibliography. After a "References" (or "Bibliography", "Literature Cited", …) heading every
 * block until the next heading is an entry, split by `groupBlocks` at labels ("[12]") and hanging
 * indents. A bibliography printed without a heading (REVTeX, some preprints) is found as a run of
 * blocks after the last heading that start with the labels [1], [2], … (or 1., 2., …) in order; it
 * gets a "References" heading in the Document (marked `synthetic` on its block) and its blocks are
 * split at the labels.
 */
import type { Block } from './pdf-blocks.js';
import { REFERENCES_HEADING } from './pdf-headings.js';
import type { PdfLine } from './pdf-lines.js';

export const isReferencesHeading = (text: string) =>
  REFERENCES_HEADING.test(text.trim().replace(/[.:]$/, ''));

const LABEL = /^\s*(?:\[(\d{1,3})\]|(\d{1,3})\.\s)/;
const labelOf = (line: PdfLine): number | null => {
  const m = LABEL.exec(line.text);
  return m ? Number(m[1] ?? m[2]) : null;
};

/** Splits a block at lines that start with a reference label. */
function splitAtLabels(block: Block): Block[] {
  const out: Block[] = [];
  for (const line of block.lines) {
    if (out.length === 0 || labelOf(line) !== null) out.push({ ...block, kind: 'reference', lines: [line] });
    else out.at(-1)!.lines.push(line);
  }
  return out;
}

/**
 * Finds an unheaded bibliography (see the module comment) and returns the blocks with it marked:
 * its entries as `reference` blocks preceded by a synthetic heading block.
 */
export function markUnheadedReferences(blocks: readonly Block[]): Block[] {
  if (blocks.some((b) => b.kind === 'reference')) return [...blocks];
  let lastHeading = -1;
  for (const [i, b] of blocks.entries()) if (b.kind === 'heading') lastHeading = i;
  const start = blocks.findIndex(
    (b, i) => i > lastHeading && b.kind !== 'heading' && labelOf(b.lines[0]!) === 1,
  );
  if (start < 0) return [...blocks];
  // The labels must run 1, 2, 3 … over at least three entries.
  let expected = 1;
  for (const b of blocks.slice(start)) {
    if (b.kind === 'heading') break;
    for (const l of b.lines) if (labelOf(l) === expected) expected++;
  }
  if (expected <= 3) return [...blocks];
  const first = blocks[start]!;
  const heading: Block & { synthetic?: boolean } = {
    kind: 'heading',
    page: first.page,
    region: first.region,
    lines: [],
    level: 1,
    indented: false,
    synthetic: true,
  };
  const out = blocks.slice(0, start);
  out.push(heading);
  for (const b of blocks.slice(start)) {
    if (b.kind === 'heading') {
      out.push(...blocks.slice(blocks.indexOf(b)));
      break;
    }
    if (b.kind === 'body' || b.kind === 'float' || b.kind === 'footnote') out.push(...splitAtLabels(b));
    else out.push(b);
  }
  return out;
}
