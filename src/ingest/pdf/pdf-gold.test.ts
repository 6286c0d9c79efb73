/**
 * The PDF reader on real papers of `../shared/data/pdf-gold/` (dev split only: the validation
 * split is for reporting, not for tests) and `../shared/data/papers/pdf/`. Skipped when the shared
 * data is absent.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Document, sectionAt } from '../../core/index.js';
import { sharedDataAvailable, sharedDataPath, skipWithoutSharedData } from '../../testing/shared-data.js';
import { readDocumentFile } from '../read-document.js';

const read = async (...parts: string[]) => (await readDocumentFile(sharedDataPath(...parts)))[0]!;
const texts = (doc: Document, kind: string) =>
  doc.paragraphs.filter((p) => p.kind === kind).map((p) => doc.text.slice(p.start, p.end));

describe('PDF reader on pdf-gold (skipped without ../shared/data)', () => {
  beforeEach(skipWithoutSharedData(['pdf-gold']));
  describe('a JOSE paper with a first-page sidebar (jose.00180)', () => {
    let doc: Document;
    beforeAll(async () => {
      if (!sharedDataAvailable('pdf-gold')) return;
      doc = await read('pdf-gold', 'jose', '10.21105.jose.00180.pdf');
    }, 60_000);

    it('keeps the sidebar, running footer and page numbers out of the text', () => {
      const sidebar = doc.furniture.filter((f) => f.kind === 'sidebar').map((f) => f.text);
      expect(sidebar).toContain('Authors of papers retain copyright');
      expect(doc.text).not.toContain('Authors of papers retain copyright');
      expect(doc.text).not.toContain('Journal of Open Source Education');
    });

    it('reads the title, authors as front matter, then the sections in order', () => {
      expect(doc.title).toBe(
        'SNIK Graph—Visualizing Knowledge about Management of Hospital Information Systems',
      );
      expect(texts(doc, 'front').some((t) => t.startsWith('Konrad Höffner'))).toBe(true);
      expect(doc.sections.map((s) => s.heading)).toEqual([
        'Summary',
        'Statement of need',
        'Future work',
        'Acknowledgements',
        'References',
      ]);
      const first = texts(doc, 'body')[0]!;
      expect(first).toMatch(
        /^Medical and health informatics integrates knowledge of business information systems, computer science and medicine\./,
      );
    });

    it('splits the bibliography into entries and links the citations to them', () => {
      const refs = doc.paragraphs.filter((p) => p.kind === 'reference');
      expect(refs.length).toBe(14);
      expect(refs.every((p) => sectionAt(doc, p.start)?.heading === 'References')).toBe(true);
      const linked = doc.markers.filter((m) => m.kind === 'citation' && m.targets.length > 0);
      expect(linked.length).toBeGreaterThan(5);
      const franz = linked.find((m) => doc.text.slice(m.start, m.end) === '(Franz et al., 2015)');
      const entry = doc.paragraphs.find((p) => p.id === franz?.targets[0]);
      expect(doc.text.slice(entry!.start, entry!.end)).toMatch(/^Franz, M\./);
    });
  });

  it('keeps a table of contents out of the structure (JCAP 0807.3577)', async () => {
    const doc = await read('pdf-gold', 'grobid', '0807.3577.pdf');
    expect(doc.furniture.filter((f) => f.kind === 'toc').length).toBeGreaterThanOrEqual(6);
    const headings = doc.sections.map((s) => s.heading);
    expect(headings).not.toContain('Contents');
    expect(headings.filter((h) => h === '1. Introduction')).toHaveLength(1);
  }, 60_000);

  it('tells exponents from footnote markers and keeps exponents in their line (JCAP 0807.3577)', async () => {
    const doc = await read('pdf-gold', 'grobid', '0807.3577.pdf');
    const marked = doc.markers
      .filter((m) => m.kind === 'footnote')
      .map((m) => doc.text.slice(m.start - 6, m.end));
    expect(marked).toEqual(['nvoked⁵', ' model⁶', 'ystems⁷', '5, the⁸']);
    expect(doc.text).toContain('κ = 8πG/c⁴.');
    expect(doc.text).toContain('H 0 = 70 km s−¹ Mpc−¹.');
  }, 60_000);

  it('files an unlettered appendix under its own heading and a run-in abstract under Abstract (JCAP 0807.3577)', async () => {
    const doc = await read('pdf-gold', 'grobid', '0807.3577.pdf');
    const sectionOf = (snippet: string) => sectionAt(doc, doc.text.indexOf(snippet))?.heading;
    expect(doc.title).toBe('Apparent and average accelerations of the Universe');
    // "Appendix. Model specification" (printed with an fi ligature) is a heading, not body text of
    // the Acknowledgments, and the appendix paragraphs (pp. 11–14) are under it.
    const appendix = doc.sections.find((s) => s.heading.startsWith('Appendix.'));
    expect(appendix?.heading.normalize('NFKC')).toBe('Appendix. Model specification');
    expect(sectionOf('There are three arbitrary functions of the radial coordinate')).toBe(appendix?.heading);
    const acknowledgments = doc.sections.find((s) => s.heading === 'Acknowledgments')!;
    expect(doc.paragraphs.filter((p) => p.sectionId === acknowledgments.id)).toHaveLength(1);
    // The abstract ("Abstract. In this paper …", label run in) is the section Abstract; the
    // keywords after it are front matter under no section.
    const abstract = doc.paragraphs.filter((p) => p.kind === 'abstract');
    expect(abstract).toHaveLength(2);
    expect(new Set(abstract.map((p) => doc.sections.find((s) => s.id === p.sectionId)?.heading))).toEqual(
      new Set(['Abstract']),
    );
    expect(sectionOf('Keywords: dark energy theory')).toBeUndefined();
  }, 60_000);

  it('keeps object DOIs and video captions of an eLife paper out of the paragraphs around them', async () => {
    const doc = await read('pdf-gold', 'elife', 'elife-1234567890.pdf');
    const body = texts(doc, 'body');
    expect(body.filter((t) => t.includes('DOI: https://doi.org/10.7554/eLife.00666.0'))).toEqual([]);
    expect(texts(doc, 'float')).toContain('DOI: https://doi.org/10.7554/eLife.00666.004');
    expect(texts(doc, 'caption').some((t) => t.startsWith('Appendix 2—Video 1. A descirption'))).toBe(true);
    expect(body.some((t) => t.endsWith('See Appendix 2—Video 1 and Apendix 2— Table 1.'))).toBe(true);
  }, 60_000);

  it('keeps a line of smaller inline code in the sentence it continues (jose.00240 p. 2)', async () => {
    const doc = await read('pdf-gold', 'jose', '10.21105.jose.00240.pdf');
    expect(texts(doc, 'body')).toContain(
      '• Single-objective and multi-objective optimization under uncertainty with PEST++OPT and PEST++MOU.',
    );
  }, 60_000);

  it('reads a line of inline mathematics with labelled arrows as one line (2020.acl-main.207 p. 3)', async () => {
    const doc = await read('pdf-gold', 's2orc-acl', '2020.acl-main.207.pdf');
    expect(doc.text).toContain(
      'query paper, i.e. if P¹ −cite−→ P² and P² −cite−→ P³ but P¹ −cite−6→ P³, then',
    );
  }, 60_000);

  it('keeps a results table as TSV and a numbered list as text (Wang-paperAVE2008)', async () => {
    const doc = await read('pdf-gold', 'grobid', 'Wang-paperAVE2008.pdf');
    const tables = texts(doc, 'table');
    expect(tables.some((t) => t.split('\n').length >= 3 && t.includes('\t'))).toBe(true);
    expect(texts(doc, 'body').some((t) => t.startsWith('1. Annotate NEs in H'))).toBe(true);
    expect(texts(doc, 'body').some((t) => t.startsWith('2. Analyze the question'))).toBe(true);
  }, 60_000);
});

describe('PDF reader on papers/pdf (skipped without ../shared/data)', () => {
  beforeEach(skipWithoutSharedData(['papers', 'pdf']));
  it('joins wrapped headings and takes bold first sentences for no headings (EACL 2023)', async (ctx) => {
    skipWithoutSharedData(['papers', 'pdf', '2023.eacl-main.121.pdf'])(ctx);
    const doc = await read('papers', 'pdf', '2023.eacl-main.121.pdf');
    const headings = doc.sections.map((s) => s.heading);
    expect(headings).toContain('3 The LONGEVAL guidelines for faithfulness human evaluation');
    expect(headings).toContain('A Bootstrap analysis of inter-annotator variance');
    expect(headings.some((h) => /^Long-form summaries are rarely/.test(h))).toBe(false);
  }, 60_000);

  it('links author–year citations of a two-column ACL paper (N18-3011)', async () => {
    const doc = await read('papers', 'pdf', 'N18-3011.pdf');
    const refs = doc.paragraphs.filter((p) => p.kind === 'reference');
    expect(refs.length).toBeGreaterThan(20);
    const cited = doc.markers.filter((m) => m.kind === 'citation');
    const linked = cited.filter((m) => m.targets.length > 0);
    expect(linked.length / cited.length).toBeGreaterThan(0.8);
  }, 60_000);
  // These two read pdf-gold files, which are never bundled (only papers/pdf is).
  it('keeps the last line of a page that runs one line below the usual frame (jose.00184 p. 2)', async (ctx) => {
    skipWithoutSharedData(['pdf-gold', 'jose', '10.21105.jose.00184.pdf'])(ctx);
    const doc = await read('pdf-gold', 'jose', '10.21105.jose.00184.pdf');
    const body = texts(doc, 'body').join('\n');
    expect(body).toContain('rotation curves, as related to the current problems and mysteries');
    expect(doc.furniture.map((f) => f.text)).not.toContain(
      'curves, as related to the current problems and mysteries regarding dark matter in',
    );
  }, 60_000);

  it('keeps a compound broken at one of its hyphens (2020.acl-main.207 "state-" / "of-the-art")', async (ctx) => {
    skipWithoutSharedData(['pdf-gold', 's2orc-acl', '2020.acl-main.207.pdf'])(ctx);
    const doc = await read('pdf-gold', 's2orc-acl', '2020.acl-main.207.pdf');
    expect(doc.text).toContain('substantially outperform the state-of-the-art on a variety');
  }, 60_000);
});
