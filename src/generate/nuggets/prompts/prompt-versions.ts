/**
 * The version of each command's prompts, recorded in its run manifest: a hash of the messages the
 * prompt builders make for fixed stand-in inputs, so any change to a system prompt or to how a user
 * message is put together changes it (and a resume with other prompts stops with
 * RUN_MANIFEST_MISMATCH), while the inputs themselves are hashed apart.
 */
import { canonicalJson, sha256Hex } from '../../../core/index.js';
import type { ChatMessage } from '../../../llm/index.js';
import { canonicalPrompt } from './canonical-prompt.js';
import { clusterSummaryPrompt } from './cluster-summary-prompt.js';
import { paraphrasePrompt } from './paraphrase-prompt.js';
import { qaPairsPrompt } from './qa-pairs-prompt.js';
import {
  GENERAL_QUALITIES_SYSTEM,
  PERSONALIZATION_SYSTEM,
  qualityPrompt,
  VITALITY_SYSTEM,
} from './quality-prompt.js';
import { summarizePrompt } from './summarize-prompt.js';
import { validateAnswersPrompt } from './validate-answers-prompt.js';

const version = (prompts: ChatMessage[][]): string => sha256Hex(canonicalJson(prompts)).slice(0, 12);

/** `nuggets generate`: summary, QA pairs, paraphrase check, canonical question, answer validation. */
export function generatePromptsVersion(): string {
  return version([
    summarizePrompt('D', 'L'),
    summarizePrompt('D', null),
    qaPairsPrompt('S', 'R'),
    paraphrasePrompt('Q1', 'Q2'),
    canonicalPrompt(['Q1', 'Q2'], 'R'),
    validateAnswersPrompt('Q', ['A']),
    validateAnswersPrompt('Q', ['A1', 'A2']),
  ]);
}

/** `nuggets score-quality`: vitality, personalisation, the ten general qualities. */
export function qualityPromptsVersion(): string {
  const request = { background: 'B', problemStatement: 'P' };
  return version(
    [VITALITY_SYSTEM, PERSONALIZATION_SYSTEM, GENERAL_QUALITIES_SYSTEM].map((s) =>
      qualityPrompt(s, 'Q', request),
    ),
  );
}

/** `nuggets ginger`: the cluster summary. */
export function gingerPromptsVersion(): string {
  return version([clusterSummaryPrompt('Q', ['A1', 'A2'])]);
}
