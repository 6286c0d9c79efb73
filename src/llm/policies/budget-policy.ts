import { type Budget, projectCost } from '../budget.js';
import type { Price } from '../prices.js';
import type { CallPolicy } from './call-stack.js';

/**
 * Budget: a call reserves its projected cost before it starts and is refused (a failed call, not
 * a throw) when the reservation would pass the cap; when it ends the reservation is settled with
 * what it cost. A priced, fresh reply without usage fields is charged its projection, so the cap
 * still holds; a cached reply costs what the cache says (0, or unknown).
 */
export function budgetPolicy(budget: Budget, price: Price | null, expectedOutputTokens?: number): CallPolicy {
  return (next) => async (request, schema) => {
    const started = performance.now();
    const hold = budget.reserve(projectCost(request, price, expectedOutputTokens));
    if (hold === null) {
      return {
        ok: false,
        reason: `budget exceeded: $${budget.spentUsd.toFixed(4)} spent of $${budget.limitUsd}; this call would pass it`,
        usage: null,
        costUsd: null,
        retries: 0,
        cached: false,
        latencyMs: performance.now() - started,
      };
    }
    let outcome: Awaited<ReturnType<typeof next>>;
    try {
      outcome = await next(request, schema);
    } catch (error) {
      budget.settle(hold, null);
      throw error;
    }
    const charged = outcome.ok && !outcome.cached && price ? hold.projectedUsd : null;
    budget.settle(hold, outcome.costUsd ?? charged);
    return outcome;
  };
}
