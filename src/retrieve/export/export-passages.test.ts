import { describe, expect, it } from 'vitest';
import type { Passage } from '../passages/index.js';
import { exportPassages, parseExportFormat, passageLines } from './export-passages.js';

const passage: Passage = {
  id: 'paper-1#3',
  docId: 'paper-1',
  text: 'We train on "quoted" text.\nSecond line.',
  start: 10,
  end: 49,
  sectionPath: ['Methods', 'Training'],
  page: 4,
  title: 'A Paper',
};

describe('export passages', () => {
  it('writes the same id and text with paper id, section and page in each format', () => {
    expect(JSON.parse(passageLines(passage, 'jsonl'))).toEqual({
      id: 'paper-1#3',
      paper_id: 'paper-1',
      title: 'A Paper',
      section: 'Methods > Training',
      page: 4,
      text: passage.text,
    });
    expect(JSON.parse(passageLines(passage, 'pyserini'))).toMatchObject({
      id: 'paper-1#3',
      contents: passage.text,
    });
    const [action, doc, end] = passageLines(passage, 'opensearch-bulk', 'papers').split('\n');
    expect(JSON.parse(action!)).toEqual({ index: { _index: 'papers', _id: 'paper-1#3' } });
    expect(JSON.parse(doc!)).toMatchObject({ paper_id: 'paper-1', text: passage.text, page: 4 });
    expect(end).toBe('');
  });

  it('streams every passage, one line each (two for bulk), and refuses an unknown format', () => {
    const chunks: string[] = [];
    const many = Array.from({ length: 5 }, (_, i) => ({ ...passage, id: `paper-1#${i}`, sectionPath: [] }));
    expect(exportPassages(many, 'jsonl', (s) => chunks.push(s))).toBe(5);
    const lines = chunks.join('').trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l).id)).toEqual(many.map((p) => p.id));
    expect(JSON.parse(lines[0]!).section).toBeNull();
    expect(() => parseExportFormat('csv')).toThrow(expect.objectContaining({ code: 'BAD_OPTION' }));
  });
});
