import { createManifest, defaultLabel, type InputRef, type RunManifest } from '../core/index.js';
import type { Answerer } from './answerer.js';

/** Settings a default label leaves out while they have these values. */
const LABEL_DEFAULTS = { context: 'auto', k: 8, contract: true, free_text: false };

/**
 * The manifest of an answer run: the answerer's settings, the dataset and the papers (content
 * hashes), citegeist's version, and a label (`--label`, else the model plus the settings that
 * differ from the defaults, e.g. `openai:gpt-4.1-mini (k=3)`).
 */
export function answerManifest(o: {
  answerer: Pick<Answerer, 'id' | 'settings'>;
  /** How passages are ranked within a paper when the answerer's own source does not say (the CLI's `openPaperRetrieval`). */
  retriever?: string;
  label?: string | undefined;
  dataset: InputRef;
  papers: InputRef;
  version: string;
}): RunManifest {
  const settings = {
    ...o.answerer.settings,
    ...(o.retriever && o.answerer.settings.retriever === 'bm25' ? { retriever: o.retriever } : {}),
  };
  return createManifest({
    kind: 'run',
    label: o.label,
    defaultLabel: defaultLabel(o.answerer.id, settings, LABEL_DEFAULTS),
    settings,
    inputs: { dataset: o.dataset, papers: o.papers },
    version: o.version,
  });
}
