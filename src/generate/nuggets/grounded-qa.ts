/**
 * Step 1, grounded QA (METHODS §5 step 1; manestay/dogmatiq `step1_gen_qa.py`): per document, a
 * summary in the document's own language, then 1–6 English question-answer pairs from the summary
 * and the request, answer first. Each pair keeps its document id.
 *
 * A QA reply that is not a JSON list of {answer, question} gives the document no pairs, as the
 * released code's lenient `json_loads` does; it is recorded as `malformed` or `refused` with the raw
 * reply. Pairs past the sixth are dropped (the prompt asks for at most six) and counted.
 */
import { extractJson, type LlmProvider } from '../../llm/index.js';
import { type CallOutcome, callText, looksRefused } from './llm-step.js';
import { QaPairsSchema, qaPairsPrompt } from './prompts/qa-pairs-prompt.js';
import { summarizePrompt } from './prompts/summarize-prompt.js';

export const MAX_QA_PAIRS = 6;

/** One document of a request: a TREC document, a paper, or a section of a long paper. */
export interface NuggetDocument {
  id: string;
  text: string;
  /** Language name for the summary prompt ("Chinese"), or null when unknown. */
  language: string | null;
  /** For paper sections: the paper id whose passages answers are mapped to. */
  paperId?: string;
}

export interface QaPair {
  question: string;
  answer: string;
  /** Where the answer is, when finer than the document (a paper's passage id); else the document. */
  doc_id?: string;
}

/** What step 1 records per document (one line of `qa.jsonl`). */
export interface DocumentQa {
  request_id: string;
  doc_id: string;
  language: string | null;
  status: 'ok' | 'malformed' | 'refused';
  summary: string;
  qa_pairs: QaPair[];
  /** Pairs beyond the sixth, dropped. */
  extra_pairs?: number;
  /** The QA reply when it could not be used. */
  raw?: string;
}

/** ISO 639 codes of the NeuCLIR/RAGTIME collections and common ones, as the released code names them. */
const LANGUAGE_NAMES: Record<string, string> = {
  zho: 'Chinese',
  zh: 'Chinese',
  fas: 'Persian',
  fa: 'Persian',
  rus: 'Russian',
  ru: 'Russian',
  eng: 'English',
  en: 'English',
  ara: 'Arabic',
  ar: 'Arabic',
  deu: 'German',
  de: 'German',
  fra: 'French',
  fr: 'French',
  spa: 'Spanish',
  es: 'Spanish',
  jpn: 'Japanese',
  ja: 'Japanese',
  kor: 'Korean',
  ko: 'Korean',
};

/** A language code or name as a name for prompts ("zho" → "Chinese"); unknown codes pass through. */
export function languageName(code: string | null | undefined): string | null {
  if (!code) return null;
  return LANGUAGE_NAMES[code.toLowerCase()] ?? code;
}

export type QaStepResult = { ok: true; record: DocumentQa } | { ok: false; reason: string };

/** Parses a QA reply; null when it is not a JSON list of pairs. */
export function parseQaPairs(text: string): QaPair[] | null {
  const found = extractJson(text);
  if (!found) return null;
  // Lenient on shape: keep the well-formed pairs of a list, with whitespace trimmed.
  if (!Array.isArray(found.value)) return null;
  const pairs = QaPairsSchema.safeParse(
    found.value.filter(
      (p) => p && typeof p === 'object' && typeof p.answer === 'string' && typeof p.question === 'string',
    ),
  );
  if (!pairs.success) return null;
  return pairs.data
    .map((p) => ({ question: p.question.trim(), answer: p.answer.trim() }))
    .filter((p) => p.question !== '' && p.answer !== '');
}

/**
 * Step 1 for one document. `summaries` shares summary calls between requests: the summary does not
 * depend on the request, so a document of several requests (every paper of a corpus) is
 * summarised once (one model call, counted once by the runtime).
 */
export async function groundedQa(
  llm: LlmProvider,
  requestId: string,
  requestText: string,
  doc: NuggetDocument,
  summaries?: Map<string, Promise<CallOutcome>>,
): Promise<QaStepResult> {
  const key = `${doc.language ?? ''}\u0000${doc.text}`;
  const shared = summaries?.get(key);
  const summary = shared
    ? await shared
    : await (() => {
        const call = callText(llm, summarizePrompt(doc.text, doc.language), 1024);
        summaries?.set(key, call);
        return call;
      })();
  // A failed summary is not shared: the next document retries it.
  if (!summary.ok && summaries?.get(key)) summaries.delete(key);
  if (!summary.ok) return { ok: false, reason: `summary: ${summary.reason}` };
  const qa = await callText(llm, qaPairsPrompt(summary.text.trim(), requestText), 1024);
  if (!qa.ok) return { ok: false, reason: `QA pairs: ${qa.reason}` };
  const base = {
    request_id: requestId,
    doc_id: doc.id,
    language: doc.language,
    summary: summary.text.trim(),
  };
  const pairs = parseQaPairs(qa.text);
  if (pairs === null) {
    const status = looksRefused(qa.text) ? 'refused' : 'malformed';
    return { ok: true, record: { ...base, status, qa_pairs: [], raw: qa.text } };
  }
  const record: DocumentQa = { ...base, status: 'ok', qa_pairs: pairs.slice(0, MAX_QA_PAIRS) };
  if (pairs.length > MAX_QA_PAIRS) record.extra_pairs = pairs.length - MAX_QA_PAIRS;
  return { ok: true, record };
}

/** The request as the released code puts it into the QA and canonical prompts. */
export function requestPromptText(request: {
  background: string | null;
  problemStatement: string | null;
  title: string | null;
}): string {
  // f"{background}\n{problem_statement}" there; the title stands in when both are missing.
  const text = `${request.background ?? ''}\n${request.problemStatement ?? ''}`;
  return text.trim() === '' ? (request.title ?? '') : text;
}
