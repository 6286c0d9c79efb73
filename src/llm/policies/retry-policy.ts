import { type BackoffPolicy, retryLoop } from '../retry.js';
import type { CallPolicy } from './call-stack.js';

/**
 * Retry: a retryable failure is tried again with back-off (`retryLoop`, the one retry loop); the
 * outcome counts the retries, and the status and Retry-After only the inner policies need are
 * dropped from it.
 */
export function retryPolicy(policy: BackoffPolicy): CallPolicy {
  return (next) => async (request, schema) => {
    const { reply, retries } = await retryLoop(() => next(request, schema), policy, {
      signal: request.signal,
    });
    if (reply.ok) return { ...reply, retries };
    const { status: _status, retryAfterMs: _after, ...failure } = reply;
    return { ...failure, retries };
  };
}
