import { CitegeistError } from '../core/index.js';
import { type Price, type PriceTable, priceFor } from './prices.js';
import type { ChatMessage, GenerateRequest } from './provider.js';

/** The pre-run heuristic: one token per 4 characters of prompt (English prose with GPT-style BPE). */
export const CHARS_PER_TOKEN = 4;
/** Output tokens assumed for a call that sets no maxTokens. */
export const DEFAULT_EXPECTED_OUTPUT_TOKENS = 500;

export function estimateInputTokens(messages: readonly ChatMessage[]): number {
  let chars = 0;
  for (const m of messages) chars += m.content.length;
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** Projected USD of one call before it is made (maxTokens, else the expected output, as output). */
export function projectCost(
  request: Pick<GenerateRequest, 'messages' | 'maxTokens'>,
  price: Price | null,
  expectedOutputTokens = DEFAULT_EXPECTED_OUTPUT_TOKENS,
): number | null {
  if (!price) return null;
  const out = request.maxTokens ?? expectedOutputTokens;
  return (estimateInputTokens(request.messages) * price.input + out * price.output) / 1e6;
}

export interface CostEstimate {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** Null when the model has no price in the table. */
  costUsd: number | null;
}

/**
 * A pre-run (`--dry-run`) estimate for a list of requests to one model: prompt tokens by the
 * chars/4 heuristic, output tokens from each request's maxTokens or `expectedOutputTokens`.
 */
export function estimateCost(
  providerId: string,
  requests: readonly Pick<GenerateRequest, 'messages' | 'maxTokens'>[],
  options: { model?: string; prices?: PriceTable; expectedOutputTokens?: number } = {},
): CostEstimate {
  const model = options.model ?? providerId.slice(providerId.indexOf(':') + 1);
  const price = priceFor(providerId, model, options.prices);
  const expected = options.expectedOutputTokens ?? DEFAULT_EXPECTED_OUTPUT_TOKENS;
  let inputTokens = 0;
  let outputTokens = 0;
  for (const r of requests) {
    inputTokens += estimateInputTokens(r.messages);
    outputTokens += r.maxTokens ?? expected;
  }
  const costUsd = price ? (inputTokens * price.input + outputTokens * price.output) / 1e6 : null;
  return { calls: requests.length, inputTokens, outputTokens, costUsd };
}

/** A reservation held by a call in flight. */
export interface BudgetHold {
  readonly projectedUsd: number;
}

/**
 * A hard spending cap shared by every provider of a run. A call reserves its projected cost before
 * it starts; it is refused when spent + reserved + projected would pass the limit, so no new call
 * starts once the projected spend would pass it. Calls to unpriced models cannot be capped: they
 * are let through and counted in `unpricedCalls`.
 */
export class Budget {
  private spent = 0;
  private reserved = 0;
  private unpriced = 0;

  constructor(readonly limitUsd: number) {
    if (!(limitUsd >= 0)) {
      throw new CitegeistError(
        'INVALID_ARGUMENT',
        `Budget: limit must be >= 0, got ${limitUsd}.`,
        'Pass a limit in USD ≥ 0.',
      );
    }
  }

  get spentUsd(): number {
    return this.spent;
  }
  get reservedUsd(): number {
    return this.reserved;
  }
  get unpricedCalls(): number {
    return this.unpriced;
  }

  /** Reserves the projected cost, or returns null when the call must not start. */
  reserve(projectedUsd: number | null): BudgetHold | null {
    if (projectedUsd === null) {
      this.unpriced++;
      return { projectedUsd: 0 };
    }
    if (this.spent + this.reserved + projectedUsd > this.limitUsd) return null;
    this.reserved += projectedUsd;
    return { projectedUsd };
  }

  /** Releases a reservation and records what the call really cost. */
  settle(hold: BudgetHold, actualUsd: number | null): void {
    this.reserved = Math.max(0, this.reserved - hold.projectedUsd);
    if (actualUsd !== null) this.spent += actualUsd;
  }
}
