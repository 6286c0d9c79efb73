import { describe, expect, it } from 'vitest';
import { findSectionsByLabel } from '../../core/index.js';
import { sharedDataPath } from '../../testing/shared-data.js';
import { readDocumentBytes, readDocumentFile } from '../read-document.js';

const ctx = (file: string) => ({ file, id: 'x' });
const bytes = (s: string) => new TextEncoder().encode(s);
const spanText = (doc: { text: string }, s: { start: number; end: number }) => doc.text.slice(s.start, s.end);

describe('JATS and TEI from the shared papers keep their section structure', () => {
  it.each([
    [
      'papers/jats/PMC5828200.nxml',
      'jats',
      'RESULTS ::: Bioavailability of CSP',
      '10.18632/oncotarget.24369',
      'CC BY 3.0',
    ],
    ['papers/jats/PMC6398430.nxml', 'jats', 'Abstract', undefined, 'CC BY 4.0'],
    [
      'papers/jats/PMC7417471.nxml',
      'jats',
      'Electrospun nanofibers containing GNMs ::: Dispersing GNMs using external forces',
      '10.1186/s40580-020-00237-4',
      'CC BY',
    ],
    [
      'papers/gold/N18-3011.tei.xml',
      'tei',
      '2 Structure of The Literature Graph ::: 2.1 Node Types',
      undefined,
      undefined,
    ],
    ['papers/gold/2020.acl-main.207.tei.xml', 'tei', 'Introduction', undefined, undefined],
  ])('%s', async (path, source, label, doi, licence) => {
    const [doc] = await readDocumentFile(sharedDataPath(...path.split('/')));
    expect(doc!.source).toBe(source);
    expect(doc!.title.length).toBeGreaterThan(10);
    expect(doc!.sections.length).toBeGreaterThan(5);
    const hits = findSectionsByLabel(doc!.sections, label, { exact: true });
    expect(hits).toHaveLength(1);
    const inside = doc!.paragraphs.filter((p) => p.start >= hits[0]!.start && p.end <= hits[0]!.end);
    expect(inside.length).toBeGreaterThan(0);
    if (doi) expect(doc!.meta.doi).toBe(doi);
    if (licence) expect(doc!.meta.licence).toBe(licence);
  });
});

describe('QASPER and S2ORC JSON', () => {
  it('reads QASPER native JSON with nested section names', async () => {
    const docs = await readDocumentFile(sharedDataPath('qasper-dev', 'qasper-native-sample.json'));
    expect(docs.map((d) => d.id)).toEqual(['1912.01214']);
    const doc = docs[0]!;
    const [setup] = findSectionsByLabel(doc.sections, 'Experiments ::: Setup ::: Datasets.', { exact: true });
    expect(setup?.path).toEqual(['Experiments', 'Setup', 'Datasets.']);
    expect(doc.paragraphs.some((p) => p.sectionId === setup!.id)).toBe(true);
  });
  it('reads several QASPER papers from one file', async () => {
    const two = JSON.stringify({
      a1: { title: 'A', abstract: 'x', full_text: [{ section_name: 'Intro', paragraphs: ['one'] }] },
      b2: { title: 'B', abstract: 'y', full_text: [{ section_name: 'S ::: T', paragraphs: ['two'] }] },
    });
    const docs = await readDocumentBytes(bytes(two), ctx('two.json'));
    expect(docs.map((d) => [d.id, d.title, d.sections.map((s) => s.path.join('>'))])).toEqual([
      ['a1', 'A', ['Abstract', 'Intro']],
      ['b2', 'B', ['Abstract', 'S', 'S>T']],
    ]);
  });
  it('reads S2ORC body_text with numbered sections', async () => {
    const [doc] = await readDocumentFile(sharedDataPath('papers', 'gold', 'N18-3011.s2orc.json'));
    expect(doc!.id).toBe('N18-3011');
    const [s] = findSectionsByLabel(doc!.sections, 'Node Types');
    expect(s?.path).toEqual(['2 Structure of The Literature Graph', '2.1 Node Types']);
  });
});

describe('Markdown and text', () => {
  it('reads a QASPER full text: the first # line is the title, ## lines are sections', async () => {
    const [doc] = await readDocumentFile(sharedDataPath('qasper-dev', 'papers', '1503.00841.txt'));
    expect(doc!.source).toBe('markdown');
    expect(doc!.title).toBe('Robustly Leveraging Prior Knowledge in Text Classification');
    expect(doc!.sections[0]!.heading).toBe('Abstract');
    expect(doc!.paragraphs.find((p) => p.kind === 'abstract')).toBeDefined();
  });
  it.each([
    ['nesting follows #', '# A\n\ntext\n\n## B\n\nb\n\n# C\n\nc\n', ['A', 'A>B', 'C']],
    ['## after ### closes the ###', '## A\n\na\n\n### B\n\nb\n\n## C\n\nc\n', ['A', 'A>B', 'C']],
    ['plain text has no sections', 'Just a line\nand its next line.\n\nSecond paragraph.', []],
  ])('%s', async (_name, text, paths) => {
    const [doc] = await readDocumentBytes(bytes(text), ctx('a.md'));
    expect(doc!.sections.map((s) => s.path.join('>'))).toEqual(paths);
  });
  it('joins plain-text lines and line-break hyphens', async () => {
    const [doc] = await readDocumentBytes(
      bytes('We test the dehypenisa-\ntion of a short text.\n'),
      ctx('a.txt'),
    );
    expect(doc!.source).toBe('text');
    expect(spanText(doc!, doc!.paragraphs[0]!)).toBe('We test the dehypenisation of a short text.');
  });
});

describe('bad input', () => {
  it.each([
    ['empty.txt', '', /EMPTY_FILE|empty \(0 bytes\)/],
    ['bad.nxml', '<article><body><p>unclosed</body></article>', /bad\.nxml line 1.*not well-formed XML/],
    ['bad.json', '{"a": [1, 2', /bad\.json is not valid JSON/],
    ['other.json', '{"rows": []}', /neither QASPER.*nor S2ORC/],
    ['qasper.json', '{"p1": {"title": "t", "full_text": [3]}}', /paper "p1", full_text\[0\]/],
    ['blob.bin', 'ab\u0000cd', /not a supported format/],
  ])('%s', async (file, text, error) => {
    await expect(readDocumentBytes(bytes(text), ctx(file))).rejects.toThrow(error);
  });
});
