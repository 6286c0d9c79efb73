import { CitegeistError, type Document, type ParagraphKind } from '../../core/index.js';
import { fileStem } from '../detect-format.js';
import { DocumentBuilder } from '../document-builder.js';
import type { IngestContext } from '../ingest-context.js';
import { withMarkers } from '../markers.js';
import { joinLines, Vocabulary } from './hyphenation.js';
import { analysePages } from './pdf-analysis.js';
import type { Block } from './pdf-blocks.js';
import { readPdfContent } from './pdf-engine.js';
import { layoutPages } from './pdf-lines.js';
import { tableText } from './pdf-tables.js';

function buildVocabulary(blocks: readonly Block[]): Vocabulary {
  const vocab = new Vocabulary();
  for (const b of blocks) vocab.addLines(b.lines.map((l) => l.text));
  return vocab;
}

/** Lines of code and formulas keep their line breaks; prose is joined with hyphenation repaired. */
function blockText(b: Block, vocab: Vocabulary): string {
  if (b.kind === 'table') return tableText(b.lines);
  if (b.kind === 'code' || b.kind === 'formula') return b.lines.map((l) => l.text).join('\n');
  return joinLines(
    b.lines.map((l) => l.text),
    vocab,
  );
}

/** A PDF file → Document: layout, furniture, headings, kinds, reading order, markers. */
export async function pdfToDocument(bytes: Uint8Array, ctx: IngestContext): Promise<Document> {
  const content = await readPdfContent(ctx.file, bytes, ctx.maxPdfPages);
  const layouts = layoutPages(content.pages);
  if (layouts.every((p) => p.lines.length === 0)) {
    throw new CitegeistError(
      'INGEST_NO_TEXT',
      `${ctx.file} has no text layer on any of its ${content.pages.length} page(s) (a scan, or images only).`,
      'Run OCR on it first (e.g. `ocrmypdf in.pdf out.pdf`) and ingest the result.',
    );
  }
  const { blocks, furniture } = analysePages(layouts);
  const vocab = buildVocabulary(blocks);
  const builder = new DocumentBuilder();
  builder.furniture.push(...furniture);
  let title = '';
  let lastPage = 0;
  const touchUpTo = (page: number) => {
    for (; lastPage < page; ) builder.touchPage(++lastPage);
  };
  // An abstract under no heading (its label run in: "Abstract. In this paper …") gets a section
  // named Abstract, from its first paragraph to its last before the first heading; the front matter
  // after it (keywords, dates) stays outside, as before.
  const firstHeading = blocks.findIndex((b) => b.kind === 'heading');
  const beforeHeadings = firstHeading < 0 ? blocks : blocks.slice(0, firstHeading);
  const abstractEnd = beforeHeadings.findLastIndex((b) => b.kind === 'abstract');
  for (const [i, b] of blocks.entries()) {
    touchUpTo(b.page);
    if (b.kind === 'abstract' && i <= abstractEnd && !builder.currentSection())
      builder.heading('Abstract', 1, b.page, '');
    if (i === abstractEnd + 1 && abstractEnd >= 0 && b.kind !== 'heading') builder.closeSections();
    if (b.kind === 'heading') {
      if (b.synthetic) builder.heading('References', b.level, b.page, '');
      else builder.heading(blockText(b, vocab), b.level, b.page);
      continue;
    }
    const text = blockText(b, vocab);
    if (b.kind === 'title') title ||= text;
    builder.paragraph(text, b.kind as ParagraphKind, b.page);
  }
  touchUpTo(layouts.length);
  const doc = builder.build({
    id: ctx.id,
    // A PDF that prints no title and names none in its information is known by its file name.
    title: title || content.info.title || fileStem(ctx.file),
    source: 'pdf',
    meta: { file: ctx.file },
  });
  const damage = damageNote(content, doc.text);
  if (damage) doc.meta.damaged = damage;
  return withMarkers(doc);
}

/** Share of characters above which unmapped glyphs (U+FFFD, private use) flag the text as damaged. */
const UNMAPPED_SHARE = 0.005;

/**
 * What could not be read: pages whose content stream is damaged, and glyphs without a Unicode
 * mapping (pdfjs gives U+FFFD or private-use code points: the text there is gibberish).
 */
function damageNote(
  content: { unreadable: { page: number; reason: string }[] },
  text: string,
): string | undefined {
  const notes: string[] = [];
  if (content.unreadable.length > 0) {
    const pages = content.unreadable.map((u) => u.page);
    notes.push(
      `${pages.length} page(s) unreadable (${pages.slice(0, 10).join(', ')}${pages.length > 10 ? ', …' : ''}: ${content.unreadable[0]?.reason})`,
    );
  }
  const unmapped = text.match(/[\uFFFD\uE000-\uF8FF]/g)?.length ?? 0;
  if (unmapped > 20 && unmapped / Math.max(1, text.length) > UNMAPPED_SHARE) {
    notes.push(`${unmapped} of ${text.length} characters have no Unicode mapping (text there is unreadable)`);
  }
  return notes.length > 0 ? notes.join('; ') : undefined;
}
