import type { WireFailure } from './transport.js';

/** `fetch` as the providers use it; tests and proxies may pass their own. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export type HttpResult = { ok: true; status: number; json: unknown } | (WireFailure & { body?: string });

/** HTTP statuses worth another attempt: timeouts, conflicts, rate limits, overload, server errors. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 425 || status === 429 || status >= 500;
}

/**
 * Parses `retry-after-ms` or `retry-after` (delta seconds or an HTTP date) into milliseconds.
 * Returns undefined when absent or unparseable.
 */
export function parseRetryAfter(headers: Headers, now = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\d+(\.\d+)?$/.test(ms.trim())) return Number(ms);
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Replaces every occurrence of a secret in text (error bodies sometimes echo keys). */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join('[redacted]');
  return out;
}

/**
 * POSTs JSON and classifies the outcome. Never throws except when `signal` aborts (the caller
 * tells a timeout from a cancellation). Secrets are removed from every text it returns.
 */
export async function postJson(
  fetchImpl: FetchLike,
  url: string,
  headers: Record<string, string>,
  body: unknown,
  signal: AbortSignal,
  secrets: readonly string[],
): Promise<HttpResult> {
  const where = redact(url, secrets);
  let response: Response;
  let text: string;
  try {
    response = await fetchImpl(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      signal,
    });
    text = await response.text();
  } catch (error) {
    if (signal.aborted) throw signal.reason ?? error;
    const e = error as { code?: string; message?: string; cause?: { code?: string; message?: string } };
    const detail = e.code ?? e.cause?.code ?? e.cause?.message ?? e.message;
    return {
      ok: false,
      reason: redact(`network error calling ${where}: ${detail}`, secrets),
      retryable: true,
    };
  }
  const clean = redact(text, secrets);
  if (!response.ok) {
    const failure: WireFailure & { body?: string } = {
      ok: false,
      status: response.status,
      reason: `HTTP ${response.status} from ${where}: ${errorMessage(clean)}`,
      retryable: isRetryableStatus(response.status),
      raw: clean.slice(0, 2000),
      body: clean,
    };
    const after = parseRetryAfter(response.headers);
    if (after !== undefined) failure.retryAfterMs = after;
    return failure;
  }
  try {
    return { ok: true, status: response.status, json: JSON.parse(text) };
  } catch {
    return {
      ok: false,
      status: response.status,
      reason: `unparseable response body from ${where} (${text.length} bytes)`,
      retryable: true,
      raw: clean.slice(0, 2000),
    };
  }
}

/** The human part of an API error body ({error: {message}} or {error: "…"} or the text). */
function errorMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof parsed.error === 'string') return parsed.error;
    if (parsed.error && typeof parsed.error.message === 'string') return parsed.error.message;
    if (typeof parsed.message === 'string') return parsed.message;
  } catch {
    // not JSON: fall through to the text
  }
  return body.slice(0, 300) || '(empty body)';
}

/** Joins a base URL and a path without doubling slashes. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}
