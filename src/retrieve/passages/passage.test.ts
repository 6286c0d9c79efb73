import { describe, expect, it } from 'vitest';
import { type DocumentInput, DocumentSchema } from '../../core/index.js';
import { chunkDocument } from './passage.js';

function doc(input: Partial<DocumentInput> & { text: string }) {
  return DocumentSchema.parse({ id: 'd1', title: 'A Title', source: 'text', ...input });
}

describe('chunkDocument', () => {
  const text = 'Intro para one.\n\nMethods text here. Second sentence here. Third one now.';
  const d = doc({
    text,
    pages: [
      { number: 1, start: 0, end: 17 },
      { number: 2, start: 17, end: text.length },
    ],
    sections: [
      { id: 's1', heading: 'Introduction', level: 1, path: ['Introduction'], start: 0, end: 17 },
      { id: 's2', heading: 'Methods', level: 1, path: ['Methods'], start: 17, end: text.length },
    ],
    paragraphs: [
      { id: 'p1', sectionId: 's1', page: 1, start: 0, end: 15 },
      { id: 'p2', sectionId: 's2', page: 2, start: 17, end: text.length },
    ],
  });

  it('makes one passage per paragraph with spans, section path, page and title', () => {
    const ps = chunkDocument(d);
    expect(ps.map((p) => [p.id, p.text, p.sectionPath, p.page, p.title])).toEqual([
      ['d1#0', 'Intro para one.', ['Introduction'], 1, 'A Title'],
      ['d1#1', text.slice(17), ['Methods'], 2, 'A Title'],
    ]);
    for (const p of ps) expect(text.slice(p.start, p.end)).toBe(p.text);
  });

  it('splits a long paragraph at sentence boundaries to the token budget', () => {
    const ps = chunkDocument(d, { maxTokens: 7 });
    expect(ps.map((p) => p.text)).toEqual([
      'Intro para one.',
      'Methods text here. Second sentence here.',
      'Third one now.',
    ]);
    expect(ps.map((p) => p.id)).toEqual(['d1#0', 'd1#1', 'd1#2']);
  });

  it('cuts a single over-long sentence by tokens and falls back to blank-line blocks', () => {
    const plain = doc({ text: 'a b c d e f g\n\n  \n\nlast block' });
    expect(chunkDocument(plain, { maxTokens: 3 }).map((p) => p.text)).toEqual([
      'a b c',
      'd e f',
      'g',
      'last block',
    ]);
    expect(chunkDocument(doc({ text: '' }))).toEqual([]);
  });
});

describe('chunkDocument and the bibliography, markers', () => {
  const text = 'Transformers [1] work well.\n\n[1] A. Vaswani. Attention is all you need. 2017.';
  const d = doc({
    text,
    paragraphs: [
      { id: 'p1', sectionId: null, page: null, start: 0, end: 27, kind: 'body' },
      { id: 'p2', sectionId: null, page: null, start: 29, end: text.length, kind: 'reference' },
    ],
    markers: [{ start: 13, end: 16, kind: 'citation', targets: ['p2'] }],
  });

  it('leaves bibliography entries out unless asked to keep them', () => {
    expect(chunkDocument(d).map((p) => p.text)).toEqual(['Transformers [1] work well.']);
    expect(chunkDocument(d, { includeReferences: true })).toHaveLength(2);
  });

  it('blanks markers in the text to index and keeps the passage text verbatim', () => {
    const [p] = chunkDocument(d);
    expect(p!.text).toBe('Transformers [1] work well.');
    expect(p!.indexText).toBe('Transformers     work well.');
  });
});
