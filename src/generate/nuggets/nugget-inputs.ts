import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Document, InputRef } from '../../core/index.js';
import type { ReportRequest } from '../../formats/index.js';
import { chunkDocument, loadIndex, type Passage } from '../../retrieve/index.js';
import type { NuggetDocument } from './grounded-qa.js';
import { paperDocuments, readRequestDocuments } from './nugget-documents.js';
import { itemsInput } from './nugget-manifest.js';
import { createPassageLocator } from './passage-locator.js';
import type { RequestInput } from './pipeline-options.js';

/** How the bank says it was made (`creator`; the released step 2 fills the same fields). */
export const PROMPT_STRATEGY =
  'citegeist-dogmatiq-1: summary in the document language, 1-6 English QA pairs answer-first, LLM-verified paraphrases (cosine >= threshold), canonical question, answer validation AND/OR (prompts: docs/nuggets.md)';

/** The documents of each request `nuggets generate` reads, and what its manifest records of them. */
export interface NuggetInputs {
  inputs: RequestInput[];
  /** Requests without a document (skipped). */
  missing: string[];
  /** Where a QA pair's answer sits among the corpus passages (corpus documents only). */
  locate?: (doc: NuggetDocument, pair: { question: string; answer: string }) => string | undefined;
  source: string;
  maxDocTokens: number | null;
  /** The passages located in (corpus documents only), hashed for the manifest. */
  passages: InputRef | null;
}

/** Documents per request from a folder or JSONL of them (`--docs`). */
export function requestDocumentInputs(
  path: string,
  requests: readonly ReportRequest[],
  source: string,
): NuggetInputs {
  const byRequest = readRequestDocuments(path);
  const inputs: RequestInput[] = [];
  const missing: string[] = [];
  for (const request of requests) {
    const docs = byRequest.get(request.id) ?? [];
    if (docs.length === 0) missing.push(request.id);
    else inputs.push({ request, docs });
  }
  return { inputs, missing, source, maxDocTokens: null, passages: null };
}

/**
 * Every paper of a corpus as a document of every request, split into sections of at most
 * `maxTokens`; answers are located among the passages `reports judge --docs <corpus>` reads (the
 * index beside the corpus, else each paper chunked the same way).
 */
export function corpusDocumentInputs(
  corpusPath: string,
  papers: readonly Document[],
  requests: readonly ReportRequest[],
  maxTokens: number,
): NuggetInputs {
  const docs = papers.flatMap((p) => paperDocuments(p, maxTokens));
  const indexDir = join(dirname(corpusPath), 'index');
  const indexed = existsSync(join(indexDir, 'manifest.json')) ? loadIndex(indexDir).passages.toArray() : null;
  const byPaper = new Map<string, Passage[]>();
  const passages = indexed ?? papers.flatMap((d) => chunkDocument(d));
  for (const p of passages) byPaper.set(p.docId, [...(byPaper.get(p.docId) ?? []), p]);
  return {
    inputs: requests.map((request) => ({ request, docs })),
    missing: [],
    locate: createPassageLocator((id) => byPaper.get(id) ?? []),
    source: corpusPath,
    maxDocTokens: maxTokens,
    passages: itemsInput(
      new Map(passages.map((p) => [p.id, p.text])),
      indexed ? `index:${indexDir}` : `chunked:${corpusPath}`,
    ),
  };
}
