/**
 * Display formulas, found per line before lines are grouped (a stacked fraction prints as three
 * lines: numerator, the line with the equation number, denominator; exponents and indices may sit on
 * lines of their own).
 *
 * A line is *mathematical* when it holds at most two words of prose (three letters or more, other
 * than function names and "where", "and", "for" …), does not run across most of its region, and has
 * a mathematical symbol, an equation number, or at most twelve characters. A formula is a run of
 * consecutive mathematical lines of one region, at most two line gaps apart, that contains a line
 * ending in an equation number ("(5)", "(A.3)"), or two or more lines with symbols that are set
 * in from the region's left edge.
 */
import type { Frame } from './pdf-blocks.js';
import type { PdfLine } from './pdf-lines.js';

const MATH_CHAR = /[=+−×÷∑∏∫∂∇√∞≤≥≈≠≡∝∈∉⊂⊆∪∩∀∃→←↔⇒⇔±∓·∘⊗⊕′αβγδεζηθικλμνξπρστυφχψωΓΔΘΛΞΠΣΦΨΩ]/u;
export const EQUATION_NUMBER = /\(\s*(?:\d{1,3}[a-z]?|[A-Z]\.\d{1,3})\s*\)$/;
const FUNCTION_WORDS =
  /^(?:where|and|for|with|if|otherwise|then|log|exp|max|min|sin|cos|tan|sinh|cosh|tanh|lim|sup|inf|arg|argmax|argmin|det|diag|tr|mod|var|cov|const)$/i;

const proseWords = (text: string) =>
  (text.match(/\p{L}{3,}/gu) ?? []).filter((w) => !FUNCTION_WORDS.test(w)).length;

function isMathLine(l: PdfLine, frame: Frame): boolean {
  const text = l.text.trim();
  if (l.x1 - l.x0 > (frame.right - frame.left) * 0.85 && !EQUATION_NUMBER.test(text)) return false;
  if (proseWords(text) > 2) return false;
  return MATH_CHAR.test(text) || EQUATION_NUMBER.test(text) || text.replace(/\s/g, '').length <= 12;
}

/** The lines of a page that belong to display formulas, with a formula number each. */
export function findFormulas(
  lines: readonly PdfLine[],
  frameOf: (l: PdfLine) => Frame,
  lineGap: number,
): Map<PdfLine, number> {
  const out = new Map<PdfLine, number>();
  let formula = 0;
  for (let i = 0; i < lines.length; ) {
    if (!isMathLine(lines[i]!, frameOf(lines[i]!))) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < lines.length) {
      const prev = lines[j - 1]!;
      const l = lines[j]!;
      if (
        l.region !== prev.region ||
        l.page !== prev.page ||
        prev.y - l.y > lineGap * 2 * (l.size / 10 + 0.2)
      )
        break;
      if (!isMathLine(l, frameOf(l))) break;
      j++;
    }
    const run = lines.slice(i, j);
    const frame = frameOf(run[0]!);
    const numbered = run.some((l) => EQUATION_NUMBER.test(l.text.trim()) && l.x0 > frame.left + l.size);
    const setIn = run.filter((l) => MATH_CHAR.test(l.text) && l.x0 > frame.left + l.size).length >= 2;
    if (numbered || setIn) {
      formula++;
      for (const l of run) out.set(l, formula);
    }
    i = j;
  }
  return out;
}
