import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  CitegeistError,
  type Document,
  findSectionsByLabel,
  pageAt,
  quoteValue,
  type Section,
} from '../../core/index.js';
import { detectFormat, inspectPdfPage, renderPageInspection } from '../../ingest/index.js';
import { readInputBytes } from '../../io/index.js';
import { loadDocument } from '../../store/index.js';
import type { CliContext, RegisterCommand } from '../context.js';
import { CORPUS_OPTION, corpusPath } from '../corpus-option.js';
import { parseIntOption } from '../setup/option-parsers.js';

function pagesOf(doc: Document, s: Section): string {
  const first = pageAt(doc, s.start);
  const last = pageAt(doc, Math.max(s.start, s.end - 1));
  if (first === null) return '';
  return first === last || last === null ? ` (p. ${first})` : ` (pp. ${first}–${last})`;
}

function outline(doc: Document): string {
  const meta = doc.meta;
  const kinds = new Map<string, number>();
  for (const p of doc.paragraphs) kinds.set(p.kind, (kinds.get(p.kind) ?? 0) + 1);
  const lines = [
    `${doc.id}: ${doc.title || '(no title)'}`,
    `source ${doc.source}${meta.file ? `, file ${meta.file}` : ''}`,
    ...(meta.doi ? [`doi ${meta.doi}`] : []),
    ...(meta.licence ? [`licence ${meta.licence}`] : []),
    ...(meta.damaged ? [`DAMAGED: ${meta.damaged}`] : []),
    `${doc.pages.length} pages, ${doc.sections.length} sections, ${doc.paragraphs.length} paragraphs, ${doc.text.length} characters, ${doc.furniture.length} furniture lines, ${doc.markers.length} markers`,
    `paragraph kinds: ${[...kinds].map(([k, n]) => `${k} ${n}`).join(', ')}`,
    '',
  ];
  for (const s of doc.sections) {
    const paragraphs = doc.paragraphs.filter((p) => p.sectionId === s.id).length;
    lines.push(`${'  '.repeat(s.level - 1)}${s.heading}${pagesOf(doc, s)} · ${paragraphs} paragraph(s)`);
  }
  return `${lines.join('\n')}\n`;
}

/** The text of a section, its tables shown as TSV between `--- table` lines. */
function sectionText(doc: Document, s: Section): string {
  const out: string[] = [];
  let at = s.start;
  for (const p of doc.paragraphs) {
    if (
      p.start < s.start ||
      p.end > s.end ||
      p.kind !== 'table' ||
      !doc.text.slice(p.start, p.end).includes('\t')
    )
      continue;
    out.push(doc.text.slice(at, p.start), `--- table (TSV)\n${doc.text.slice(p.start, p.end)}\n---`);
    at = p.end;
  }
  out.push(doc.text.slice(at, s.end));
  return out.join('');
}

/** The PDF a document was read from: the file given, or the stored document's source file. */
async function pdfOf(ctx: CliContext, ref: string, corpus: string | undefined) {
  let file = resolve(ctx.io.cwd, ref);
  if (!(existsSync(file) && statSync(file).isFile())) {
    const doc = await loadDocument(ref, { corpus: corpusPath(ctx, corpus), cwd: ctx.io.cwd });
    file = resolve(ctx.io.cwd, doc.meta.file ?? '');
    if (doc.source !== 'pdf' || !doc.meta.file || !existsSync(file)) {
      throw new CitegeistError(
        'BAD_OPTION',
        `${doc.id} ${doc.source !== 'pdf' ? `was read from ${doc.source}, not a PDF` : `came from ${quoteValue(doc.meta.file ?? '')}, which is no longer there`}; --layout shows the page layout of a PDF.`,
        'Give the PDF file itself: `citegeist show paper.pdf --layout 1`.',
      );
    }
  }
  const bytes = new Uint8Array(readInputBytes(file, { what: 'PDF' }));
  if (detectFormat(file, bytes) !== 'pdf') {
    throw new CitegeistError(
      'BAD_OPTION',
      `${ref} is not a PDF; --layout shows the page layout of a PDF.`,
      'Give a PDF file or the id of a document ingested from one.',
    );
  }
  return { file: ref, bytes };
}

export const registerShow: RegisterCommand = (program, ctx) => {
  program
    .command('show')
    .description(
      'show a document (by corpus id or file): metadata and outline, the text of one section, the whole Document (--json), or how one PDF page was read (--layout)',
    )
    .argument('<doc>', 'document id in the corpus, or a paper file in any supported format')
    .option('--section <label>', 'print this section: case- and numbering-insensitive, nested as "A ::: B"')
    .option(
      '--layout <page>',
      'PDF only: the column separators, regions in reading order and blocks with their kinds on this page',
      parseIntOption('--layout', 1),
    )
    .option(...CORPUS_OPTION)
    .action(async (ref: string, options: { section?: string; layout?: number; corpus?: string }) => {
      const json = ctx.globals().json;
      if (options.layout !== undefined) {
        const { file, bytes } = await pdfOf(ctx, ref, options.corpus);
        const page = await inspectPdfPage(file, bytes, options.layout);
        ctx.io.out(json ? `${JSON.stringify(page, null, 2)}\n` : renderPageInspection(page));
        return;
      }
      const doc = await loadDocument(ref, { corpus: corpusPath(ctx, options.corpus), cwd: ctx.io.cwd });
      if (options.section === undefined) {
        ctx.io.out(json ? `${JSON.stringify(doc, null, 2)}\n` : outline(doc));
        return;
      }
      const hits = findSectionsByLabel(doc.sections, options.section);
      if (hits.length === 0) {
        const known = doc.sections.map((s) => s.path.join(' ::: '));
        throw new CitegeistError(
          'SECTION_NOT_FOUND',
          `${doc.id} has no section ${quoteValue(options.section)}; its sections: ${quoteValue(known.slice(0, 12), 400)}.`,
          'Use one of those labels (numbers and case do not matter).',
        );
      }
      const sections = hits.map((s) => ({
        ...s,
        page: pageAt(doc, s.start),
        text: doc.text.slice(s.start, s.end),
        paragraphs: doc.paragraphs.filter((p) => p.start >= s.start && p.end <= s.end),
      }));
      if (json) {
        ctx.io.out(`${JSON.stringify({ id: doc.id, title: doc.title, sections }, null, 2)}\n`);
        return;
      }
      for (const s of hits)
        ctx.io.out(`== ${s.path.join(' ::: ')}${pagesOf(doc, s)}\n\n${sectionText(doc, s)}\n\n`);
    });
};
