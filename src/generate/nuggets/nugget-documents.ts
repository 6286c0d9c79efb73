/**
 * The documents of each request for `nuggets generate`:
 *
 * - a folder `<docs>/<request_id>/<doc_id>.json` holding `{text, language}` (also `contents`),
 *   the layout the released step 1 reads (manestay/dogmatiq `step1_gen_qa.py`, `*\/*.json`), or
 *   `<doc_id>.txt` / `.md`;
 * - a JSONL file, one document per line: `{request_id, doc_id, text, language?}` (`topic_id`,
 *   `query_id`, `docid`, `id`, `contents` accepted);
 * - the papers of a citegeist corpus (every paper a document of every request): a paper longer
 *   than the model's context is split into its sections, and those still too long into pieces
 *   of whole paragraphs (METHODS §5 step 1 "for papers").
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { CitegeistError, type Document, location, quoteValue } from '../../core/index.js';
import { parseJsonl, readJsonFile, readTextFile } from '../../io/index.js';
import { CHARS_PER_TOKEN } from '../../llm/index.js';
import { languageName, type NuggetDocument } from './grounded-qa.js';

const REQUEST_FIELDS = ['request_id', 'topic_id', 'query_id', 'qid'] as const;

function invalid(problem: string): CitegeistError {
  return new CitegeistError(
    'INVALID_INPUT',
    `${problem}.`,
    'Give --docs as a folder <request_id>/<doc_id>.json ({"text", "language"}) or a JSONL of {"request_id", "doc_id", "text", "language"}, or --corpus for your papers.',
  );
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function pickString(v: Record<string, unknown>, fields: readonly string[]): string | undefined {
  for (const f of fields) if (typeof v[f] === 'string' || typeof v[f] === 'number') return String(v[f]);
  return undefined;
}

/** A folder of request folders, or a JSONL; documents per request id, in file order. */
export function readRequestDocuments(path: string): Map<string, NuggetDocument[]> {
  if (!existsSync(path)) {
    throw new CitegeistError(
      'FILE_NOT_FOUND',
      `The documents path ${path} does not exist.`,
      'Check --docs (relative paths are taken from the current folder).',
    );
  }
  const out = new Map<string, NuggetDocument[]>();
  const add = (requestId: string, doc: NuggetDocument) => {
    const list = out.get(requestId) ?? [];
    if (list.some((d) => d.id === doc.id))
      throw invalid(`Document ${quoteValue(doc.id)} appears twice for request ${quoteValue(requestId)}`);
    list.push(doc);
    out.set(requestId, list);
  };
  if (statSync(path).isDirectory()) {
    for (const requestId of readdirSync(path).sort()) {
      const dir = join(path, requestId);
      if (requestId.startsWith('.') || !statSync(dir).isDirectory()) continue;
      for (const name of readdirSync(dir).sort()) {
        const ext = extname(name);
        if (!['.json', '.txt', '.md'].includes(ext)) continue;
        const file = join(dir, name);
        if (ext !== '.json') {
          const text = readTextFile(file, 'document');
          add(requestId, { id: name.slice(0, -ext.length), text, language: null });
          continue;
        }
        const v = readJsonFile(file, 'document');
        if (!isRecord(v)) throw invalid(`${file} is not a JSON object`);
        const text = pickString(v, ['text', 'contents', 'body']);
        if (text === undefined) throw invalid(`${file} has no "text"`);
        add(requestId, {
          id: name.slice(0, -ext.length),
          text,
          language: languageName(pickString(v, ['language', 'lang'])),
        });
      }
    }
    return out;
  }
  for (const line of parseJsonl(readTextFile(path, 'documents file'))) {
    const where = location(path, line.line);
    if (!line.ok) throw invalid(`${where} is not JSON (${line.error})`);
    const v = line.value;
    if (!isRecord(v)) throw invalid(`${where} is not a JSON object`);
    const requestId = pickString(v, REQUEST_FIELDS);
    const id = pickString(v, ['doc_id', 'docid', 'id']);
    const text = pickString(v, ['text', 'contents', 'segment', 'body']);
    if (requestId === undefined || id === undefined || text === undefined) {
      throw invalid(
        `${where} needs "request_id", "doc_id" and "text" (got keys ${quoteValue(Object.keys(v))})`,
      );
    }
    add(requestId, { id, text, language: languageName(pickString(v, ['language', 'lang'])) });
  }
  return out;
}

/**
 * A paper as documents for step 1: whole when it fits `maxTokens` (chars / 4), else cut at its
 * top-level sections, consecutive sections packed into one piece while they fit, and a section
 * too long on its own cut into pieces of whole paragraphs. Pieces are named `<paperId>§<n>`; `paperId` maps answers back to
 * the paper's passages.
 */
export function paperDocuments(doc: Document, maxTokens: number): NuggetDocument[] {
  const language = languageName(doc.language);
  const budget = maxTokens * CHARS_PER_TOKEN;
  if (doc.text.length <= budget) return [{ id: doc.id, text: doc.text, language, paperId: doc.id }];
  const top = doc.sections.filter((s) => s.level === 1).sort((a, b) => a.start - b.start);
  const spans: { start: number; end: number }[] = [];
  let at = 0;
  for (const s of top) {
    if (s.start > at) spans.push({ start: at, end: s.start });
    spans.push({ start: Math.max(s.start, at), end: s.end });
    at = Math.max(at, s.end);
  }
  if (at < doc.text.length) spans.push({ start: at, end: doc.text.length });
  // Consecutive sections share a piece while it fits: as few calls as the context allows.
  const pieces: { start: number; end: number }[] = [];
  for (const part of spans.flatMap((span) => splitToBudget(doc, span, budget))) {
    const last = pieces.at(-1);
    if (last && part.end - last.start <= budget) last.end = part.end;
    else pieces.push({ ...part });
  }
  return pieces
    .filter((p) => /\S/.test(doc.text.slice(p.start, p.end)))
    .map((p, n) => ({
      id: `${doc.id}§${n + 1}`,
      text: doc.text.slice(p.start, p.end),
      language,
      paperId: doc.id,
    }));
}

/** A span cut at paragraph ends (else at whitespace) into pieces of at most `budget` characters. */
function splitToBudget(doc: Document, span: { start: number; end: number }, budget: number) {
  if (span.end - span.start <= budget) return [span];
  const cuts = doc.paragraphs.map((p) => p.end).filter((e) => e > span.start && e < span.end);
  const out: { start: number; end: number }[] = [];
  let start = span.start;
  while (span.end - start > budget) {
    const limit = start + budget;
    const para = cuts.filter((c) => c > start && c <= limit).pop();
    const space = doc.text.lastIndexOf(' ', limit);
    const cut = para ?? (space > start ? space : limit);
    out.push({ start, end: cut });
    start = cut;
  }
  out.push({ start, end: span.end });
  return out;
}
