import { type BackoffPolicy, parseRetryAfter, RETRY_AFTER_CAP_MS, retryLoop } from '../../llm/index.js';

/** A minimal fetch signature (the global fetch fits; tests may pass their own). */
export type FetchFn = (
  url: string,
  init?: { headers?: Record<string, string>; signal?: AbortSignal },
) => Promise<Response>;

export interface PoliteHttpOptions {
  fetch?: FetchFn;
  /** Minimum milliseconds between request starts (default 110: under OpenAlex's 10 requests/s). */
  minIntervalMs?: number;
  /** Attempts per request, first included (default 4). */
  maxAttempts?: number;
  /** First back-off (default 1,000 ms), doubled per retry; a Retry-After header replaces it. */
  retryBaseMs?: number;
  /** The longest a Retry-After (seconds or an HTTP date) is honoured (default 60 s). */
  retryAfterMaxMs?: number;
  /** How to wait between attempts (default a timer; tests record the waits instead). */
  sleep?: (ms: number) => Promise<void>;
  /** Per-attempt timeout (default 60 s). */
  timeoutMs?: number;
  userAgent?: string;
}

export type HttpResult =
  | { ok: true; status: number; body: Uint8Array; contentType: string }
  | { ok: false; status: number | null; reason: string };

/**
 * Rate-limited GET with retries on 429, 5xx and network errors (honouring Retry-After as seconds
 * or an HTTP date, capped), by the shared retry loop; used for the OpenAlex API and PDF downloads.
 * Never throws on HTTP or network failures.
 */
export class PoliteHttp {
  private nextSlot = 0;
  private readonly fetchFn: FetchFn;

  constructor(private readonly options: PoliteHttpOptions = {}) {
    this.fetchFn = options.fetch ?? ((url, init) => fetch(url, init));
  }

  private async slot(): Promise<void> {
    const now = Date.now();
    const at = Math.max(now, this.nextSlot);
    this.nextSlot = at + (this.options.minIntervalMs ?? 110);
    if (at > now) await new Promise((r) => setTimeout(r, at - now));
  }

  async get(url: string): Promise<HttpResult> {
    const attempts = this.options.maxAttempts ?? 4;
    const policy: BackoffPolicy = {
      maxAttempts: attempts,
      retryBaseMs: this.options.retryBaseMs ?? 1000,
      retryMaxMs: Number.POSITIVE_INFINITY,
      retryAfterMaxMs: this.options.retryAfterMaxMs ?? RETRY_AFTER_CAP_MS,
      retryAfterReplaces: true,
      retryDelayScale: 1,
      // No jitter: one client, its pace set by the rate limit above.
      random: () => 1,
    };
    const wait = this.options.sleep;
    const { reply } = await retryLoop(() => this.attempt(url), policy, {
      ...(wait ? { wait: (ms: number) => wait(ms) } : {}),
      gaveUp: (reason, n) => `${reason} after ${n} attempts`,
    });
    if (reply.ok) return reply;
    return { ok: false, status: reply.status, reason: reply.reason };
  }

  /** One GET: a 429, a 5xx or a network error is retryable, with the server's Retry-After. */
  private async attempt(url: string): Promise<HttpResult | AttemptFailure> {
    await this.slot();
    try {
      const response = await this.fetchFn(url, {
        headers: { 'user-agent': this.options.userAgent ?? 'citegeist (corpus collection)' },
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 60_000),
      });
      if (response.ok) {
        const body = new Uint8Array(await response.arrayBuffer());
        return {
          ok: true,
          status: response.status,
          body,
          contentType: response.headers.get('content-type') ?? '',
        };
      }
      await response.arrayBuffer().catch(() => undefined);
      const failure: AttemptFailure = {
        ok: false,
        status: response.status,
        reason: `HTTP ${response.status}`,
        retryable: response.status === 429 || response.status >= 500,
      };
      const after = failure.retryable ? parseRetryAfter(response.headers) : undefined;
      if (after !== undefined) failure.retryAfterMs = after;
      return failure;
    } catch (error) {
      return { ok: false, status: null, reason: (error as Error).message, retryable: true };
    }
  }
}

/** A failed attempt with what the retry loop reads. */
type AttemptFailure = Extract<HttpResult, { ok: false }> & { retryable: boolean; retryAfterMs?: number };
