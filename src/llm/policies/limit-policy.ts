import type { AdaptiveLimiter } from '../limiter.js';
import { noteOutcome } from '../retry.js';
import type { CallPolicy, ModelOutcome } from './call-stack.js';

/**
 * Rate limit: each call holds a limiter slot while it runs (under retries: each attempt, so a call
 * sleeping before its next attempt holds none) and tells the limiter how it went, so overload
 * (429, 503, 529) shrinks the number of calls in flight.
 */
export function limitPolicy(limiter: AdaptiveLimiter): CallPolicy {
  return (next) => async (request, schema) => {
    const release = await limiter.acquire(request.signal);
    let outcome: ModelOutcome;
    try {
      outcome = await next(request, schema);
    } finally {
      release();
    }
    noteOutcome(limiter, outcome);
    return outcome;
  };
}
