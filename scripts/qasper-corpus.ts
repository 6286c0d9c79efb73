/**
 * The QASPER dev split as a retrieval test collection, shared by `bench/retrieval.bench.ts` and
 * `scripts/measure-retrieval.ts`: the 281 Markdown papers become Documents (one paragraph per
 * blank-line block, `##` headings as sections), and each question's gold evidence paragraphs
 * (matched verbatim within its paper; table/figure evidence has no paragraph and is dropped) are
 * its relevant passages.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Document, DocumentSchema } from '../src/core/index.js';

export interface QasperQuestion {
  id: string;
  paperId: string;
  question: string;
  /** Trimmed texts of gold evidence paragraphs that exist as paragraphs of the paper. */
  goldParagraphs: string[];
}

export function markdownPaperToDocument(paperId: string, markdown: string): Document {
  const blocks = markdown
    .split(/\n\s*\n/)
    .map((b) => b.trim())
    .filter(Boolean);
  let title = paperId;
  let text = '';
  const paragraphs: Document['paragraphs'] = [];
  const sections: Document['sections'] = [];
  for (const block of blocks) {
    if (block.startsWith('# ')) {
      title = block.slice(2).trim();
      continue;
    }
    if (block.startsWith('**Paper ID')) continue;
    if (text) text += '\n\n';
    const start = text.length;
    text += block;
    if (block.startsWith('#')) {
      const heading = block.replace(/^#+\s*/, '');
      const last = sections.at(-1);
      if (last) last.end = start;
      sections.push({
        id: `s${sections.length}`,
        heading,
        level: 1,
        path: heading.split(' ::: '),
        start,
        end: start,
      });
      continue;
    }
    const section = sections.at(-1);
    paragraphs.push({
      id: `p${paragraphs.length}`,
      sectionId: section?.id ?? null,
      page: null,
      kind: 'body',
      start,
      end: text.length,
    });
  }
  const last = sections.at(-1);
  if (last) last.end = text.length;
  return DocumentSchema.parse({ id: paperId, title, source: 'markdown', text, sections, paragraphs });
}

export function loadQasperDev(dir: string): { documents: Document[]; questions: QasperQuestion[] } {
  const papersDir = join(dir, 'papers');
  const documents = readdirSync(papersDir)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .map((f) => markdownPaperToDocument(f.replace(/\.txt$/, ''), readFileSync(join(papersDir, f), 'utf8')));
  const paragraphTexts = new Map(
    documents.map((d) => [d.id, new Set(d.paragraphs.map((p) => d.text.slice(p.start, p.end)))]),
  );
  const raw = JSON.parse(readFileSync(join(dir, 'questions_validation.json'), 'utf8')) as {
    paper_id: string;
    question_id: string;
    question: string;
    answers: { evidence: string[] }[];
  }[];
  const questions = raw.map((q) => {
    const texts = paragraphTexts.get(q.paper_id) ?? new Set<string>();
    const gold = new Set(
      q.answers.flatMap((a) => a.evidence.map((e) => e.trim())).filter((e) => texts.has(e)),
    );
    return { id: q.question_id, paperId: q.paper_id, question: q.question, goldParagraphs: [...gold] };
  });
  return { documents, questions };
}
