import type { Budget } from '../budget.js';
import type { CallEvent } from '../call-event.js';
import type { AdaptiveLimiter } from '../limiter.js';
import type { Price } from '../prices.js';
import type { BackoffPolicy } from '../retry.js';
import { budgetPolicy } from './budget-policy.js';
import { type CachePolicyOptions, cachePolicy } from './cache-policy.js';
import type { CallPolicy } from './call-stack.js';
import { limitPolicy } from './limit-policy.js';
import { observePolicy, timePolicy } from './observe-policy.js';
import { retryPolicy } from './retry-policy.js';

/** The policies of one provider. Absent parts are left out of the stack. */
export interface PolicyStackOptions {
  providerId: string;
  price: Price | null;
  onCall?: ((event: CallEvent) => void) | undefined;
  /** Stamp each outcome with the wall-clock time of the whole call (a queued call keeps the worker's). */
  timed?: boolean;
  cache?: CachePolicyOptions | null;
  budget?: Budget | null;
  expectedOutputTokens?: number | undefined;
  retry?: BackoffPolicy | null;
  limiter: AdaptiveLimiter;
}

/**
 * The one place the call policies are put in order, for local and queued calls alike (outermost
 * first): observe → time → cache → budget → retry → limit → the call. A cache hit is neither
 * budgeted nor limited; a budget is reserved once for all attempts of a call; retries sleep
 * without holding a limiter slot. A queued call has no cache or retry here (its worker applies
 * them) and keeps the worker's latency.
 */
export function policyStack(options: PolicyStackOptions): CallPolicy[] {
  const stack: CallPolicy[] = [];
  if (options.onCall) stack.push(observePolicy(options.providerId, options.onCall));
  if (options.timed) stack.push(timePolicy());
  if (options.cache) stack.push(cachePolicy(options.cache));
  if (options.budget) stack.push(budgetPolicy(options.budget, options.price, options.expectedOutputTokens));
  if (options.retry) stack.push(retryPolicy(options.retry));
  stack.push(limitPolicy(options.limiter));
  return stack;
}
