import { describe, expect, it } from 'vitest';
import { linesPdf } from '../../testing/generated-pdf.js';
import { readDocumentBytes } from '../read-document.js';

const BODY = [
  { text: 'Some words of a paragraph of ordinary prose, and no title line above it.', x: 72, y: 700 },
];

describe('a PDF with no title line and no title in its info', () => {
  it.each([
    ['paper.pdf', 'paper'],
    ['paper.PDF', 'paper'],
    // a PDF found by its first bytes under another name: titled by its stem, as its id is
    ['paper.bin', 'paper'],
  ])('%s is titled %s (fileStem, as the id)', async (file, title) => {
    const [doc] = await readDocumentBytes(new Uint8Array(linesPdf(BODY)), { file, id: 'g' });
    expect(doc?.title).toBe(title);
  });
});
