import { type CallEvent, callEventOf } from '../call-event.js';
import type { CallPolicy } from './call-stack.js';

/** Observe: every finished call, refused and cached ones included, is reported to `onCall`. */
export function observePolicy(providerId: string, onCall: (event: CallEvent) => void): CallPolicy {
  return (next) => async (request, schema) => {
    const outcome = await next(request, schema);
    onCall(callEventOf(providerId, outcome));
    return outcome;
  };
}

/** Timing: the outcome's latency becomes the wall-clock time of the whole call, every policy in. */
export function timePolicy(): CallPolicy {
  return (next) => async (request, schema) => {
    const started = performance.now();
    const outcome = await next(request, schema);
    return { ...outcome, latencyMs: performance.now() - started };
  };
}
