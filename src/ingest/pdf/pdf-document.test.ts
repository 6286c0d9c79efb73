import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Document, findSectionsByLabel } from '../../core/index.js';
import { sharedDataAvailable, sharedDataPath, skipWithoutSharedData } from '../../testing/shared-data.js';
import { readDocumentFile } from '../read-document.js';

const pdf = async (name: string) => (await readDocumentFile(sharedDataPath('papers', 'pdf', name)))[0]!;
const paragraphTexts = (doc: Document, kind: string) =>
  doc.paragraphs.filter((p) => p.kind === kind).map((p) => doc.text.slice(p.start, p.end));

describe('PDF extraction (skipped without ../shared/data)', () => {
  beforeEach(skipWithoutSharedData(['papers', 'pdf']));
  it('joins the line-break hyphen of the GROBID dehyphenation fixture', async () => {
    const doc = await pdf('dehypenisation1.pdf');
    expect(doc.text).toBe('We test the dehypenisation of a short text.');
    expect(doc.pages).toEqual([{ number: 1, start: 0, end: doc.text.length }]);
  });

  describe('a two-column ACL paper (N18-3011)', () => {
    let doc: Document;
    beforeAll(async () => {
      if (!sharedDataAvailable('papers', 'pdf')) return;
      doc = await pdf('N18-3011.pdf');
    }, 60_000);

    it('finds the title, the numbered section tree and the usual names', () => {
      expect(paragraphTexts(doc, 'title')).toEqual([
        'Construction of the Literature Graph in Semantic Scholar',
      ]);
      const top = doc.sections.filter((s) => s.level === 1).map((s) => s.heading);
      expect(top).toEqual([
        'Abstract',
        '1 Introduction',
        '2 Structure of The Literature Graph',
        '3 Extracting Metadata',
        '4 Entity Extraction and Linking',
        '5 Other Research Problems',
        '6 Conclusion and Future Work',
        'References',
      ]);
      expect(
        findSectionsByLabel(doc.sections, 'Structure of the literature graph ::: node types'),
      ).toHaveLength(1);
    });

    it('moves page numbers and the proceedings footer to furniture, keeping them', () => {
      const pageNumbers = doc.furniture.filter((f) => f.kind === 'page-number').map((f) => f.text);
      expect(pageNumbers).toEqual(['84', '85', '86', '87', '88', '89', '90', '91']);
      expect(doc.furniture.some((f) => f.page === 1 && /Proceedings of NAACL-HLT 2018/.test(f.text))).toBe(
        true,
      );
      expect(doc.text).not.toMatch(/Proceedings of NAACL-HLT 2018/);
    });

    it('keeps a sentence whole across a column break, with captions and footnotes as their own paragraphs', () => {
      // This sentence starts at the foot of page 1's right column and ends at the top of page 2.
      const sentence =
        'ACE-2005 (e.g., Lample et al., 2016), and assume that entity types in the test set match';
      expect(doc.text).toContain(sentence);
      const para = doc.paragraphs.find((p) => doc.text.slice(p.start, p.end).includes(sentence));
      expect(para?.page).toBe(1);
      expect(paragraphTexts(doc, 'caption')).toContain('Figure 1: Part of the literature graph.');
      expect(paragraphTexts(doc, 'footnote').some((t) => /^¹ ?Due to space constraints/.test(t))).toBe(true);
      expect(doc.text).toContain('we built the ScienceParse system to predict structured data');
      expect(doc.text).toContain('(RNNs).² For each paper');
    });

    it('gives every paragraph a page and pages contiguous spans', () => {
      expect(doc.paragraphs.every((p) => p.page !== null && p.page >= 1 && p.page <= 8)).toBe(true);
      expect(doc.pages.map((p) => p.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      for (let i = 1; i < doc.pages.length; i++) expect(doc.pages[i]!.start).toBe(doc.pages[i - 1]!.end);
    });
  });

  // The 20-page EACL paper is not bundled: a bare checkout has only the PDFs the demo ships.
  it('keeps printed ligatures in the text (EACL 2023 paper)', async (ctx) => {
    skipWithoutSharedData(['papers', 'pdf', '2023.eacl-main.121.pdf'])(ctx);
    const doc = await pdf('2023.eacl-main.121.pdf');
    expect(doc.text).toMatch(/\uFB01ne-grained/);
    expect(doc.sections.map((s) => s.heading)).toContain(
      '3.1 RQ1: Does inter-annotator agreement improve using fine-grained annotations?',
    );
    expect(doc.furniture.filter((f) => f.kind === 'page-number')).toHaveLength(20);
  }, 60_000);
});
