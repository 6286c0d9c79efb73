import type { Document } from '../../core/index.js';
import { DocumentBuilder } from '../document-builder.js';
import type { IngestContext } from '../ingest-context.js';
import { joinLines, Vocabulary } from '../pdf/hyphenation.js';

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;

/** True when the text has Markdown ATX headings (`# …`, `## …`) at the start of a line. */
export function hasMarkdownHeadings(text: string): boolean {
  return /^#{1,6}\s+\S/m.test(text);
}

/** Blank-line separated blocks of lines; a heading line is a block of its own. */
function blocks(text: string): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  const flush = () => {
    if (current.length > 0) out.push(current);
    current = [];
  };
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    if (line.trim() === '') flush();
    else if (HEADING.test(line)) {
      flush();
      out.push([line]);
    } else current.push(line);
  }
  flush();
  return out;
}

/**
 * Markdown or plain text → Document. Heading lines stay in the text as written (with their `#`
 * markers). `#` headings open sections (level = number of `#`); a
 * single level-1 heading that opens the file is the title, not a section (the QASPER full texts
 * start so). Paragraphs are blank-line separated; their lines are joined with a space, and a line
 * ending in a hyphen is joined by the document-vocabulary rule of the PDF reader (text files are
 * often `pdftotext` output).
 */
export function markdownToDocument(text: string, ctx: IngestContext): Document {
  const all = blocks(text);
  const vocab = new Vocabulary();
  // The vocabulary only decides line-end hyphen breaks: a text without any (a QASPER full text
  // has one line per paragraph) skips counting its words, which was a fifth of reading it.
  const hyphenBreak = /[\p{L}\p{N}]-$/u;
  if (all.some((b) => b.slice(0, -1).some((line) => hyphenBreak.test(line.trim()))))
    for (const b of all) if (!HEADING.test(b[0]!)) vocab.addLines(b);
  const levelOne = all.filter((b) => /^#\s/.test(b[0]!)).length;
  const first = all[0]?.[0];
  const titleFirst = first !== undefined && /^#\s/.test(first) && levelOne === 1;
  const builder = new DocumentBuilder();
  let title = '';
  const markdown = hasMarkdownHeadings(text);
  for (const [i, b] of all.entries()) {
    const heading = HEADING.exec(b[0]!);
    if (heading && b.length === 1) {
      const name = heading[2]!.trim();
      if (i === 0 && titleFirst) {
        title = name;
        builder.paragraph(b[0]!, 'title');
      } else builder.heading(name, heading[1]!.length, null, b[0]!);
      continue;
    }
    const section = builder.currentSection();
    const kind = section && /^abstract$/i.test(section.heading) ? 'abstract' : 'body';
    builder.paragraph(joinLines(b, vocab), kind);
  }
  if (!title && !markdown) title = (all[0] ? joinLines(all[0], vocab) : '').slice(0, 200);
  return builder.build({
    id: ctx.id,
    title,
    source: markdown ? 'markdown' : 'text',
    meta: { file: ctx.file },
  });
}
