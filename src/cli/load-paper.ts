import { basename, extname } from 'node:path';
import { CitegeistError, type Document, readTextFile, type Section } from '../core/index.js';

const HEADING = /^(#{1,6})[ \t]+(.+?)[ \t#]*$/gm;

/**
 * Sections of Markdown-style text from its `#` heading lines: a section runs from its heading line
 * to the next heading of the same or a higher level (or the end), so the section of an offset is
 * the one of the nearest heading above it.
 */
export function markdownSections(text: string): Section[] {
  const headings: { start: number; level: number; heading: string }[] = [];
  for (const m of text.matchAll(HEADING)) {
    headings.push({ start: m.index, level: m[1]!.length, heading: m[2]!.trim() });
  }
  const sections: Section[] = [];
  const stack: { level: number; heading: string }[] = [];
  for (const [i, h] of headings.entries()) {
    let end = text.length;
    for (let k = i + 1; k < headings.length; k++) {
      if (headings[k]!.level <= h.level) {
        end = headings[k]!.start;
        break;
      }
    }
    while (stack.length > 0 && stack[stack.length - 1]!.level >= h.level) stack.pop();
    stack.push(h);
    sections.push({
      id: `s${i + 1}`,
      heading: h.heading,
      level: h.level,
      path: stack.map((s) => s.heading),
      start: h.start,
      end,
    });
  }
  return sections;
}

const FORMATS: Record<string, 'text' | 'markdown'> = {
  '.txt': 'text',
  '.text': 'text',
  '.md': 'markdown',
  '.markdown': 'markdown',
};

/**
 * Reads a paper for the `quote` command. For now plain text and Markdown only: the text is the
 * file's text, unchanged, and `#` heading lines (in either format) give the sections. The ingest
 * stage will replace this with a loader for every format (PDF, JATS, TEI, …).
 */
export function loadPaperText(path: string): Document {
  const ext = extname(path).toLowerCase();
  const source = FORMATS[ext];
  if (source === undefined) {
    throw new CitegeistError(
      'PAPER_FORMAT_UNSUPPORTED',
      `The paper ${path} has the extension "${ext || '(none)'}"; the quote command reads .txt and .md papers for now.`,
      'Convert the paper to plain text or Markdown (PDF, JATS and TEI arrive with `citegeist ingest`).',
    );
  }
  const text = readTextFile(path, 'paper');
  const sections = markdownSections(text);
  const title = sections.find((s) => s.level === 1)?.heading ?? basename(path, ext);
  return {
    id: basename(path, ext),
    title,
    source,
    language: 'en',
    meta: { file: path },
    text,
    pages: [],
    sections,
    paragraphs: [],
    furniture: [],
  };
}
