import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sectionAt } from '../core/index.js';
import { loadPaperText, markdownSections } from './load-paper.js';

const TEXT =
  '# Title\n\nIntro text.\n\n## Method\n\n### Data\n\nData text.\n\n## Results ##\n\nResults text.\n';

describe('markdownSections', () => {
  it.each([
    ['Intro text', 'Title', ['Title']],
    ['Data text', 'Data', ['Title', 'Method', 'Data']],
    ['Results text', 'Results', ['Title', 'Results']],
  ])('%j lies in section %j', (needle, heading, path) => {
    const sections = markdownSections(TEXT);
    const section = sectionAt({ sections }, TEXT.indexOf(needle));
    expect(section?.heading).toBe(heading);
    expect(section?.path).toEqual(path);
  });

  it.each([
    ['', []],
    ['no headings here\n#hashtag is not one', []],
    ['text before\n## Late', ['Late']],
  ])('headings of %j', (text, headings) => {
    expect(markdownSections(text).map((s) => s.heading)).toEqual(headings);
  });

  it('ends a section at the next heading of the same or a higher level', () => {
    const sections = markdownSections(TEXT);
    const method = sections.find((s) => s.heading === 'Method')!;
    expect(TEXT.slice(method.start, method.end)).toBe('## Method\n\n### Data\n\nData text.\n\n');
  });
});

describe('loadPaperText', () => {
  it('reads the file text unchanged, with sections and the first level-1 heading as title', () => {
    const dir = mkdtempSync(join(tmpdir(), 'citegeist-paper-'));
    writeFileSync(join(dir, 'p.md'), TEXT);
    const doc = loadPaperText(join(dir, 'p.md'));
    expect(doc.text).toBe(TEXT);
    expect(doc.source).toBe('markdown');
    expect(doc.title).toBe('Title');
    expect(doc.pages).toEqual([]);
    expect(doc.sections).toHaveLength(4);
  });

  it('refuses other formats with a fix', () => {
    expect(() => loadPaperText('paper.pdf')).toThrow(/\.pdf.*\.txt and \.md/);
  });
});
