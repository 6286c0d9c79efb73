import { describe, expect, it } from 'vitest';
import { linesPdf } from '../../testing/generated-pdf.js';
import { readDocumentBytes } from '../read-document.js';

type Line = { text: string; x: number; y: number; size?: number };

async function read(lines: Line[], file = 'generated.pdf') {
  const [doc] = await readDocumentBytes(new Uint8Array(linesPdf(lines)), { file, id: 'g' });
  return { doc: doc!, texts: doc!.paragraphs.map((p) => doc!.text.slice(p.start, p.end)) };
}

const LEAD = 'Some words of a paragraph of ordinary prose that runs on over a';

describe('a word broken at a hyphen across blocks (issue 31, GROBID dehypenisation2)', () => {
  it('a wide gap after "dehypenisa-" does not end the paragraph (front matter of a one-page file)', async () => {
    const { doc, texts } = await read([
      { text: LEAD, x: 72, y: 700 },
      { text: 'full line of text here, and then we test the dehypenisa-', x: 72, y: 687 },
      { text: 'tion of a short text after a wide gap.', x: 72, y: 640 },
    ]);
    expect(texts).toEqual([
      `${LEAD} full line of text here, and then we test the dehypenisation of a short text after a wide gap.`,
    ]);
    expect(doc.text).toContain('dehypenisation');
  });

  it('nor in the body, under a heading', async () => {
    const { doc, texts } = await read([
      { text: 'A Generated Paper', x: 72, y: 740, size: 20 },
      { text: '1 Introduction', x: 72, y: 712, size: 14 },
      { text: LEAD, x: 72, y: 690 },
      { text: 'full line of text here, and then we test the dehypenisa-', x: 72, y: 677 },
      { text: 'tion of a short text after a wide gap.', x: 72, y: 630 },
      { text: 'A second paragraph starts after another gap and is not joined.', x: 72, y: 590 },
    ]);
    expect(doc.sections.map((s) => s.heading)).toEqual(['1 Introduction']);
    expect(texts.filter((t) => t.includes('dehypenisation'))).toEqual([
      `${LEAD} full line of text here, and then we test the dehypenisation of a short text after a wide gap.`,
    ]);
    expect(texts).toContain('A second paragraph starts after another gap and is not joined.');
  });

  it('a hyphen before a capital after a gap is no broken word: the paragraphs stay apart', async () => {
    const { texts } = await read([
      { text: LEAD, x: 72, y: 700 },
      { text: 'full line of text here, and it ends in a compound like non-', x: 72, y: 687 },
      { text: 'English text after a wide gap.', x: 72, y: 640 },
    ]);
    expect(texts).toHaveLength(2);
  });

  it('a PDF that prints no title and names none in its information is titled by its file name', async () => {
    const { doc } = await read([{ text: LEAD, x: 72, y: 700 }], 'papers/dehypenisation2.pdf');
    expect(doc.title).toBe('dehypenisation2');
    expect(
      (
        await read([
          { text: 'A Printed Title', x: 72, y: 740, size: 20 },
          { text: LEAD, x: 72, y: 700 },
        ])
      ).doc.title,
    ).toBe('A Printed Title');
  });
});
