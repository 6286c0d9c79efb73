import { CitegeistError, type Document } from '../../core/index.js';
import { DocumentBuilder } from '../document-builder.js';
import type { IngestContext } from '../ingest-context.js';
import { joinLines, Vocabulary } from './hyphenation.js';
import { type Block, endsSentence, pageBlocks } from './pdf-blocks.js';
import { readPdfContent } from './pdf-engine.js';
import { layoutPages } from './pdf-lines.js';
import { documentStats, findFurniture } from './pdf-stats.js';

/** Blocks a paragraph may jump over when it continues in the next column or page. */
const INTERRUPTIONS = new Set(['float', 'caption', 'footnote']);

/**
 * Restores reading order across column and page breaks: a body paragraph that stops mid-sentence
 * continues with the next body block, jumping over figures, tables, captions and footnotes that
 * the layout put between them (those follow the joined paragraph instead).
 */
export function joinContinuations(blocks: readonly Block[]): Block[] {
  const out: Block[] = [];
  const used = new Set<Block>();
  for (const [i, block] of blocks.entries()) {
    if (used.has(block)) continue;
    const merged: Block = { ...block, lines: [...block.lines] };
    out.push(merged);
    if (merged.kind !== 'body') continue;
    let j = i + 1;
    while (!endsSentence(merged.lines.at(-1)!.text)) {
      while (j < blocks.length && (used.has(blocks[j]!) || INTERRUPTIONS.has(blocks[j]!.kind)) && j - i < 12)
        j++;
      const next = blocks[j];
      if (next?.kind !== 'body' || next.indented || next.page > merged.lines.at(-1)!.page + 1) break;
      const sameColumn =
        next.page === merged.lines.at(-1)!.page && next.region === merged.lines.at(-1)!.region;
      if (sameColumn && j === i + 1) break; // a real paragraph break within a column
      merged.lines.push(...next.lines);
      used.add(next);
      j++;
    }
  }
  return out;
}

function buildVocabulary(blocks: readonly Block[]): Vocabulary {
  const vocab = new Vocabulary();
  for (const b of blocks) vocab.addLines(b.lines.map((l) => l.text));
  return vocab;
}

/** A PDF file → Document: layout, furniture, headings, captions, footnotes, reading order. */
export async function pdfToDocument(bytes: Uint8Array, ctx: IngestContext): Promise<Document> {
  const content = await readPdfContent(ctx.file, bytes);
  const layouts = layoutPages(content.pages);
  if (layouts.every((p) => p.lines.length === 0)) {
    throw new CitegeistError(
      'INGEST_PDF_NO_TEXT',
      `${ctx.file} has no text layer on any of its ${content.pages.length} page(s) (a scan, or images only).`,
      'Run OCR on it first (e.g. `ocrmypdf in.pdf out.pdf`) and ingest the result.',
    );
  }
  const stats = documentStats(layouts);
  const { furniture, isFurniture } = findFurniture(layouts, stats);
  const state = { inReferences: false };
  const blocks = layouts.flatMap((p) =>
    pageBlocks(
      p,
      p.lines.filter((l) => !isFurniture(l)),
      stats,
      state,
    ),
  );
  const ordered = joinContinuations(blocks);
  const vocab = buildVocabulary(ordered);
  const builder = new DocumentBuilder();
  builder.furniture.push(...furniture);
  let title = '';
  let inAbstract = false;
  let lastPage = 0;
  const touchUpTo = (page: number) => {
    for (; lastPage < page; ) builder.touchPage(++lastPage);
  };
  for (const b of ordered) {
    touchUpTo(b.page);
    const text = joinLines(
      b.lines.map((l) => l.text),
      vocab,
    );
    if (b.kind === 'heading') {
      builder.heading(text, b.level, b.page);
      inAbstract = /^abstract$/i.test(text);
    } else if (b.kind === 'title') {
      title ||= text;
      builder.paragraph(text, 'title', b.page);
    } else if (b.kind === 'body' || (inAbstract && b.kind === 'float')) {
      builder.paragraph(text, inAbstract ? 'abstract' : 'body', b.page);
    } else {
      builder.paragraph(text, b.kind, b.page);
    }
  }
  touchUpTo(layouts.length);
  return builder.build({
    id: ctx.id,
    title: content.info.title ?? title,
    source: 'pdf',
    meta: { file: ctx.file },
  });
}
