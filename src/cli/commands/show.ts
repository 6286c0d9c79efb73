import {
  CitegeistError,
  type Document,
  findSectionsByLabel,
  pageAt,
  quoteValue,
  type Section,
} from '../../core/index.js';
import { loadDocument } from '../../store/index.js';
import type { RegisterCommand } from '../context.js';
import { CORPUS_OPTION, corpusPath } from '../corpus-option.js';

function pagesOf(doc: Document, s: Section): string {
  const first = pageAt(doc, s.start);
  const last = pageAt(doc, Math.max(s.start, s.end - 1));
  if (first === null) return '';
  return first === last || last === null ? ` (p. ${first})` : ` (pp. ${first}–${last})`;
}

function outline(doc: Document): string {
  const meta = doc.meta;
  const lines = [
    `${doc.id}: ${doc.title || '(no title)'}`,
    `source ${doc.source}${meta.file ? `, file ${meta.file}` : ''}`,
    ...(meta.doi ? [`doi ${meta.doi}`] : []),
    ...(meta.licence ? [`licence ${meta.licence}`] : []),
    ...(meta.damaged ? [`DAMAGED: ${meta.damaged}`] : []),
    `${doc.pages.length} pages, ${doc.sections.length} sections, ${doc.paragraphs.length} paragraphs, ${doc.text.length} characters, ${doc.furniture.length} furniture lines`,
    '',
  ];
  for (const s of doc.sections) {
    const paragraphs = doc.paragraphs.filter((p) => p.sectionId === s.id).length;
    lines.push(`${'  '.repeat(s.level - 1)}${s.heading}${pagesOf(doc, s)} · ${paragraphs} paragraph(s)`);
  }
  return `${lines.join('\n')}\n`;
}

export const registerShow: RegisterCommand = (program, ctx) => {
  program
    .command('show')
    .description('show a document (by corpus id or file): metadata and outline, or the text of one section')
    .argument('<doc>', 'document id in the corpus, or a paper file in any supported format')
    .option('--section <label>', 'print this section: case- and numbering-insensitive, nested as "A ::: B"')
    .option(...CORPUS_OPTION)
    .action(async (ref: string, options: { section?: string; corpus?: string }) => {
      const doc = await loadDocument(ref, { corpus: corpusPath(ctx, options.corpus), cwd: ctx.io.cwd });
      const json = ctx.globals().json;
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
      }));
      if (json) {
        ctx.io.out(`${JSON.stringify({ id: doc.id, title: doc.title, sections }, null, 2)}\n`);
        return;
      }
      for (const s of sections) ctx.io.out(`== ${s.path.join(' ::: ')}${pagesOf(doc, s)}\n\n${s.text}\n\n`);
    });
};
