/**
 * The run manifests of the nugget commands that call a model (`docs/runs.md`): the settings that
 * change the banks (model, prompts' version, thresholds, embedder, filters) and content hashes of
 * what they were made from. The manifest heads the folder's state file (`step-log.ts`), so a
 * resume with other settings or inputs stops with RUN_MANIFEST_MISMATCH saying what differs.
 */
import {
  canonicalJson,
  createManifest,
  defaultLabel,
  hashItems,
  type InputRef,
  type RunManifest,
  type SettingValue,
  sha256Hex,
} from '../../core/index.js';
import type { NuggetDocument } from './grounded-qa.js';
import { generatePromptsVersion, gingerPromptsVersion, qualityPromptsVersion } from './prompts/index.js';

interface Common {
  /** The model's id (`LlmProvider.id`). */
  model: string;
  label?: string | undefined;
  version: string;
}

/** Settings a default label leaves out while they have these values. */
const GENERATE_DEFAULTS = { threshold: 0.9, embedder: 'default', english_only: true };

/** `nuggets generate`: requests file, documents per request (and the passages answers cite). */
export function generateManifest(
  o: Common & {
    threshold: number;
    embedder: string;
    englishOnly: boolean;
    exactLimit: number;
    /** Papers longer than this were split (corpus requests); null for --docs. */
    maxDocTokens: number | null;
    requests: InputRef;
    documents: InputRef;
    /** Corpus requests: the passages QA pairs were located in (their ids go into the banks). */
    passages?: InputRef;
  },
): RunManifest {
  const settings: Record<string, SettingValue> = {
    model: o.model,
    prompts: generatePromptsVersion(),
    threshold: o.threshold,
    embedder: o.embedder,
    english_only: o.englishOnly,
    exact_limit: o.exactLimit,
    max_doc_tokens: o.maxDocTokens,
  };
  return createManifest({
    kind: 'nuggets',
    label: o.label,
    defaultLabel: defaultLabel(o.model, settings, GENERATE_DEFAULTS),
    settings,
    inputs: {
      requests: o.requests,
      documents: o.documents,
      ...(o.passages ? { passages: o.passages } : {}),
    },
    version: o.version,
  });
}

/** `nuggets score-quality`: what is judged of each bank (request and questions), not its scores. */
export function qualityManifest(
  o: Common & { embedder: string; coverageCosine: number; withParaphrases: boolean; banks: InputRef },
): RunManifest {
  const settings: Record<string, SettingValue> = {
    model: o.model,
    prompts: qualityPromptsVersion(),
    embedder: o.embedder,
    coverage_cosine: o.coverageCosine,
    with_paraphrases: o.withParaphrases,
  };
  return createManifest({
    kind: 'nugget-quality',
    label: o.label,
    defaultLabel: defaultLabel(o.model, settings, {
      embedder: 'default',
      coverage_cosine: 0.8,
      with_paraphrases: false,
    }),
    settings,
    inputs: { banks: o.banks },
    version: o.version,
  });
}

/** `nuggets ginger`: the source banks' content. */
export function gingerManifest(o: Common & { topK: number; banks: InputRef }): RunManifest {
  const settings: Record<string, SettingValue> = {
    model: o.model,
    prompts: gingerPromptsVersion(),
    top_k: o.topK,
  };
  return createManifest({
    kind: 'ginger',
    label: o.label,
    defaultLabel: defaultLabel(o.model, settings, { top_k: 20 }),
    settings,
    inputs: { banks: o.banks },
    version: o.version,
  });
}

/** The `documents` input: one hash over every request's documents (id, language, text). */
export function documentsInput(
  byRequest: readonly { requestId: string; docs: readonly NuggetDocument[] }[],
  source: string,
): InputRef {
  const items = byRequest.flatMap(({ requestId, docs }) =>
    docs.map((d): [string, string] => [
      `${requestId}/${d.id}`,
      sha256Hex(canonicalJson({ language: d.language, paper: d.paperId ?? null, text: d.text })),
    ]),
  );
  return { sha256: hashItems(items), source, count: items.length };
}

/** An input over named items already reduced to content (banks, passages), with a count. */
export function itemsInput(items: ReadonlyMap<string, unknown>, source: string): InputRef {
  const hashes = [...items].map(([id, v]): [string, string] => [id, sha256Hex(canonicalJson(v))]);
  return { sha256: hashItems(hashes), source, count: items.size };
}
