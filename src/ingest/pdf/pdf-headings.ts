import type { PdfLine } from './pdf-lines.js';
import { type DocStats, usesBodyFont } from './pdf-stats.js';

/** Section names papers use without numbers; matched case-insensitively on the whole line. */
const KNOWN =
  /^(abstract|introduction|related work|background|preliminaries|methods?|methodology|approach|experiments?|experimental (setup|results)|evaluation|results?( and discussion)?|analysis|discussion|conclusions?( and future work)?|future work|limitations|broader impact|ethics statement|ethical considerations|acknowledge?ments?|references|bibliography|appendix|appendices|supplementary material)$/i;

const NUMBERED = /^(\d{1,2}(?:\.\d{1,2}){0,3})\.?\s+(\p{L}.*)$/u;
const APPENDIX = /^([A-H](?:\.\d{1,2}){0,3})\.?\s+(\p{Lu}.*)$/u;

export const CAPTION = /^(?:Figure|Fig\.|Table|Tab\.|Algorithm|Listing)\s*[A-Z]?\d+(?:\.\d+)?\s*[:.|]/;

/** The heading level a line would have (1 = top), or null when it is not a section heading. */
export function headingLevel(line: PdfLine, stats: DocStats): number | null {
  const text = line.text.trim();
  if (text.length < 3 || text.length > 120 || !/\p{L}/u.test(text)) return null;
  if (CAPTION.test(text)) return null;
  const larger = line.size >= stats.bodySize * 1.15;
  const bodyFace = usesBodyFont(line, stats) && !larger;
  if (bodyFace || line.size < stats.bodySize * 0.95) return null;
  if (KNOWN.test(text.replace(/[.:]$/, ''))) return 1;
  const numbered = NUMBERED.exec(text);
  if (numbered) {
    if (/[.,;]$/.test(text) && text.split(' ').length > 8) return null;
    const parts = numbered[1]!.split('.');
    if (Number(parts[0]) > 30) return null;
    return parts.length;
  }
  const appendix = APPENDIX.exec(text);
  if (appendix && text.split(' ').length <= 12) return appendix[1]!.split('.').length;
  if (larger && text.length <= 80 && /^\p{Lu}/u.test(text) && !/[.,;]$/.test(text)) return 1;
  return null;
}

/** Whether the heading text is a numbered one (numbered headings never continue a previous line). */
export const isNumberedHeading = (text: string) => NUMBERED.test(text) || APPENDIX.test(text);
