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
  /** First back-off (default 1,000 ms), doubled per retry; a retry-after header wins. */
  retryBaseMs?: number;
  /** Per-attempt timeout (default 60 s). */
  timeoutMs?: number;
  userAgent?: string;
}

export type HttpResult =
  | { ok: true; status: number; body: Uint8Array; contentType: string }
  | { ok: false; status: number | null; reason: string };

/**
 * Rate-limited GET with retries on 429, 5xx and network errors (honouring retry-after), used for
 * the OpenAlex API and PDF downloads. Never throws on HTTP or network failures.
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
    let last: HttpResult = { ok: false, status: null, reason: 'not attempted' };
    for (let attempt = 1; attempt <= attempts; attempt++) {
      await this.slot();
      let retryAfterMs: number | null = null;
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
        last = { ok: false, status: response.status, reason: `HTTP ${response.status}` };
        await response.arrayBuffer().catch(() => undefined);
        if (response.status !== 429 && response.status < 500) return last;
        const header = response.headers.get('retry-after');
        if (header && /^\d+(\.\d+)?$/.test(header)) retryAfterMs = Number(header) * 1000;
      } catch (error) {
        last = { ok: false, status: null, reason: (error as Error).message };
      }
      if (attempt < attempts) {
        const backoff = retryAfterMs ?? (this.options.retryBaseMs ?? 1000) * 2 ** (attempt - 1);
        await new Promise((r) => setTimeout(r, backoff));
      }
    }
    return { ...last, reason: `${last.reason} after ${attempts} attempts` } as HttpResult;
  }
}
