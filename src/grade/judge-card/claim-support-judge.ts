import type { ChatMessage } from '../../llm/index.js';
import { LexicalJudge } from '../argue/index.js';
import type { HumanItem } from '../human-labels/index.js';
import { type CallOptions, type Excerpt, verifyClaim, verifyPrompt } from '../vetscore/index.js';
import { type JudgeProvider, promptVersionOf, type SetJudge, type SetJudgment } from './set-judge.js';

/** Check-COVID codes: SUPPORT 0, REFUTE 1, NOTENOUGHINFO 2. */
const SUPPORT = 0;
const REFUTE = 1;
const NOT_ENOUGH_INFO = 2;

/** The evidence sentences of a Check-COVID item as VETSCORE excerpts, one per sentence. */
function excerptsOf(item: HumanItem): Excerpt[] {
  const evidence = item.inputs.evidence;
  const sentences = Array.isArray(evidence) ? evidence : evidence ? [evidence] : [];
  return sentences.map((text, i) => ({ key: `E${i + 1}`, text }));
}

const claimOf = (item: HumanItem) => String(item.inputs.claim ?? '');

/** The version of VETSCORE's verification prompt (the fixed text of `verifyPrompt`). */
export function claimSupportPromptVersion(): string {
  return promptVersionOf(...verifyPrompt({ claim: '', excerpts: [] }).map((m) => m.content));
}

/**
 * VETSCORE's claim-support judge (`verifyClaim`: the same prompt, schema and evidence grounding as
 * `grade faithfulness`) on claim + evidence. supported → SUPPORT, contradicted → REFUTE,
 * unsupported → NOTENOUGHINFO; a "supported" whose quote is not in the evidence is `unverified`
 * and, as VETSCORE counts it, not support → NOTENOUGHINFO.
 */
export class VetscoreClaimSupportJudge implements SetJudge {
  readonly kind = 'vetscore-claim-support';
  readonly model: string;
  readonly family: string;
  readonly promptVersion: string;

  constructor(private readonly llm: JudgeProvider) {
    this.model = llm.id;
    this.family = llm.family;
    this.promptVersion = claimSupportPromptVersion();
  }

  requests(item: HumanItem): ChatMessage[][] {
    return [verifyPrompt({ claim: claimOf(item), excerpts: excerptsOf(item) })];
  }

  async judge(item: HumanItem, call: CallOptions): Promise<SetJudgment> {
    const outcome = await verifyClaim(this.llm, { claim: claimOf(item), excerpts: excerptsOf(item) }, call);
    if (!outcome.ok) return { status: 'failed', reason: outcome.reason };
    const v = outcome.value;
    const label =
      v.verdict === 'supported' ? SUPPORT : v.verdict === 'contradicted' ? REFUTE : NOT_ENOUGH_INFO;
    return { status: 'scored', label, rationale: `${v.verdict}: ${v.rationale}` };
  }
}

/**
 * The offline lexical judge (`--judge lexical`, the ARGUE baseline's attestation rule) as a claim
 * checker: SUPPORT when the claim's terms are found in the evidence, else NOTENOUGHINFO. It never
 * says REFUTE: it cannot tell contradiction from support, which its card shows.
 */
export class LexicalClaimSupportJudge implements SetJudge {
  readonly kind = 'lexical-claim-support';
  readonly model = 'lexical';
  readonly family = null;
  readonly promptVersion: string;
  private readonly lexical = new LexicalJudge();

  constructor() {
    this.promptVersion = promptVersionOf(this.lexical.id);
  }

  requests(): ChatMessage[][] {
    return [];
  }

  async judge(item: HumanItem): Promise<SetJudgment> {
    const text = excerptsOf(item)
      .map((e) => e.text)
      .join(' ');
    const verdict = await this.lexical.attest(claimOf(item), { id: item.id, text, title: null });
    if (verdict.status !== 'scored')
      return { status: 'failed', reason: verdict.status === 'failed' ? verdict.reason : 'not applicable' };
    return {
      status: 'scored',
      label: verdict.value.attested ? SUPPORT : NOT_ENOUGH_INFO,
      ...(verdict.rationale ? { rationale: verdict.rationale } : {}),
    };
  }
}
