import { CitegeistError } from '../core/index.js';
import type { Transport, WireReply, WireRequest } from './transport.js';

/** First pause of a replica that could not be reached; doubled per failure in a row, up to MAX. */
const DOWN_BASE_MS = 1000;
const DOWN_MAX_MS = 30_000;

interface Replica {
  transport: Transport;
  inFlight: number;
  /** Not tried before this time (ms) unless every replica is down. */
  downUntil: number;
  failuresInARow: number;
}

/**
 * Replicas of one model behind one transport (`openai-compatible:http://a/v1,http://b/v1#m`):
 * each attempt goes to the reachable replica with the fewest calls in flight (ties in turn). A
 * replica that cannot be reached (a network error: nothing was processed, so sending again is
 * safe) is set aside for a while and the same attempt goes to the next; any other failure is the
 * attempt's reply, for the retry loop to judge. Still one attempt per `send`, as a transport must.
 */
export class BalancedTransport implements Transport {
  readonly kind: string;
  readonly model: string;
  /** Every replica's base URL, comma-joined: the replica set is part of the cache key. */
  readonly baseUrl: string;
  readonly maxConcurrency?: number;
  private readonly replicas: Replica[];
  private turn = 0;

  constructor(
    transports: readonly Transport[],
    private readonly now: () => number = Date.now,
  ) {
    const first = transports[0];
    if (!first) {
      throw new CitegeistError(
        'INVALID_ARGUMENT',
        'BalancedTransport: no replicas were given.',
        'Pass at least one transport.',
      );
    }
    this.kind = first.kind;
    this.model = first.model;
    this.baseUrl = transports.map((t) => t.baseUrl).join(',');
    const limits = transports.map((t) => t.maxConcurrency);
    if (limits.every((m) => m !== undefined)) this.maxConcurrency = limits.reduce((a, b) => a + b, 0);
    this.replicas = transports.map((transport) => ({
      transport,
      inFlight: 0,
      downUntil: 0,
      failuresInARow: 0,
    }));
  }

  structuredOutput(): string {
    return this.replicas[0]!.transport.structuredOutput();
  }

  /** Calls in flight per replica (for tests and `llm ping`). */
  get load(): { baseUrl: string | null; inFlight: number; down: boolean }[] {
    const t = this.now();
    return this.replicas.map((r) => ({
      baseUrl: r.transport.baseUrl,
      inFlight: r.inFlight,
      down: r.downUntil > t,
    }));
  }

  async send(request: WireRequest, signal: AbortSignal): Promise<WireReply> {
    let reply: WireReply | undefined;
    for (const replica of this.order()) {
      replica.inFlight++;
      try {
        reply = await replica.transport.send(request, signal);
      } finally {
        replica.inFlight--;
      }
      const unreachable = !reply.ok && reply.retryable && reply.status === undefined;
      if (!unreachable) {
        replica.failuresInARow = 0;
        replica.downUntil = 0;
        return reply;
      }
      replica.failuresInARow++;
      replica.downUntil =
        this.now() + Math.min(DOWN_MAX_MS, DOWN_BASE_MS * 2 ** (replica.failuresInARow - 1));
      signal.throwIfAborted();
    }
    return reply as WireReply;
  }

  /** Reachable replicas by calls in flight (ties in turn), then those set aside, soonest back first. */
  private order(): Replica[] {
    const t = this.now();
    const start = this.turn++ % this.replicas.length;
    const rotated = [...this.replicas.slice(start), ...this.replicas.slice(0, start)];
    const up = rotated.filter((r) => r.downUntil <= t).sort((a, b) => a.inFlight - b.inFlight);
    const down = rotated.filter((r) => r.downUntil > t).sort((a, b) => a.downUntil - b.downUntil);
    return [...up, ...down];
  }
}
