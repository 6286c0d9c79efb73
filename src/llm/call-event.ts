import type { GenerateResult, TokenUsage } from './provider.js';

/** What every call reports to an observer (progress bars, run logs). */
export interface CallEvent {
  providerId: string;
  ok: boolean;
  cached: boolean;
  usage: TokenUsage | null;
  costUsd: number | null;
  latencyMs: number;
  retries: number;
  reason?: string;
}

/** The event a finished call reports (the same for a local call and one made on a queue worker). */
export function callEventOf(providerId: string, result: GenerateResult): CallEvent {
  const event: CallEvent = {
    providerId,
    ok: result.ok,
    cached: result.cached,
    usage: result.usage,
    costUsd: result.costUsd,
    latencyMs: result.latencyMs,
    retries: result.retries,
  };
  if (!result.ok) event.reason = result.reason;
  return event;
}
