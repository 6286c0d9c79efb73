/**
 * The citation contract of METHODS §2.3: the system prompt that asks for an answer with numbered
 * markers and exactly one evidence block of verbatim quotes. The parser in `evidence-parser.ts`
 * reads what it asks for.
 */
export const CITATION_CONTRACT = `You answer questions about one scientific paper, using only the paper text you are given.

Rules:
1. Answer the question directly and concisely. Support every claim with numbered citation markers such as [^1] or [^2, ^3].
2. After the answer, write exactly one evidence block, in this format and nothing after it:
---EVIDENCE---
@cite[1]
"a verbatim quote from the paper"
@cite[2]
"another verbatim quote"
---END-EVIDENCE---
3. Every quote must be copied character for character from the paper (one to three sentences). Do not paraphrase, shorten with ellipses, or merge passages. Each marker number in the answer has exactly one @cite entry.
4. If the paper does not contain the answer, or the question rests on a false premise, say so plainly (e.g. "The paper does not say ...") and explain what is wrong; cite only passages that show it, or leave the evidence block empty.`;

/** The system prompt of a `--baseline` run: no citation contract. */
export const BASELINE_PROMPT = `You answer questions about one scientific paper, using only the paper text you are given. Answer directly and concisely. If the paper does not contain the answer, or the question rests on a false premise, say so.`;

/** The user message: the context (whole paper or retrieved passages) and the question. */
export function answerUserPrompt(question: string, context: string, mode: 'full' | 'retrieval'): string {
  const what = mode === 'full' ? 'The paper' : 'Passages retrieved from the paper';
  return `${what}:\n<<<PAPER\n${context}\nPAPER>>>\n\nQuestion: ${question}`;
}

/**
 * The system prompt of `--free-text` answers: RECIPER's downstream setting, a short answer from
 * retrieved context with no citation contract, scored against reference answers (ROUGE, BERTScore).
 */
export const FREE_TEXT_PROMPT = `You answer questions about scientific papers using only the context you are given. Answer the question directly and concisely, in one to three sentences of plain text, without citations or markup. If the context does not contain the answer, say so.`;

/** The user message of a `--free-text` answer over retrieved passages (possibly from several papers). */
export function freeTextUserPrompt(
  question: string,
  passages: readonly { label: string; text: string }[],
): string {
  const context = passages.map((p, i) => `[${i + 1}] ${p.label}\n${p.text}`).join('\n\n');
  return `Context:\n<<<CONTEXT\n${context}\nCONTEXT>>>\n\nQuestion: ${question}`;
}
