import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FetchFn, PoliteHttp } from './polite-http.js';

/** A fetch that answers from a script of [status, headers] and counts its calls. */
function scriptedFetch(script: [number, Record<string, string>][]): FetchFn & { calls: number } {
  const fn = async () => {
    fn.calls++;
    const [status, headers] = script.shift() ?? [200, {}];
    return new Response(status === 200 ? 'ok' : 'no', { status, headers });
  };
  fn.calls = 0;
  return fn;
}

function client(fetch: FetchFn, extra: { retryAfterMaxMs?: number } = {}) {
  const waits: number[] = [];
  const http = new PoliteHttp({
    fetch,
    minIntervalMs: 0,
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...extra,
  });
  return { http, waits };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('PoliteHttp retries (no real waits: the sleep is recorded)', () => {
  it('waits Retry-After seconds, else 1 s doubled per retry', async () => {
    const fetch = scriptedFetch([
      [429, { 'retry-after': '7' }],
      [503, {}],
      [500, { 'retry-after': '0.5' }],
    ]);
    const { http, waits } = client(fetch);
    const result = await http.get('http://127.0.0.1:1/works');
    expect(result.ok).toBe(true);
    expect(waits).toEqual([7000, 2000, 500]);
    expect(fetch.calls).toBe(4);
  });

  it('reads Retry-After as an HTTP date', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    const fetch = scriptedFetch([[429, { 'retry-after': 'Thu, 01 Jan 2026 00:00:12 GMT' }]]);
    const { http, waits } = client(fetch);
    expect((await http.get('http://127.0.0.1:1/works')).ok).toBe(true);
    expect(waits).toEqual([12_000]);
  });

  it.each([
    [{}, 60_000],
    [{ retryAfterMaxMs: 5000 }, 5000],
  ])('caps a long Retry-After (options %j → %i ms)', async (options, cap) => {
    const fetch = scriptedFetch([
      [429, { 'retry-after': '3600' }],
      [429, { 'retry-after': 'Fri, 02 Jan 2099 00:00:00 GMT' }],
    ]);
    const { http, waits } = client(fetch, options);
    expect((await http.get('http://127.0.0.1:1/works')).ok).toBe(true);
    expect(waits).toEqual([cap, cap]);
  });

  it('gives up after its attempts with the last status, and does not retry a 404', async () => {
    const { http, waits } = client(
      scriptedFetch([
        [503, {}],
        [503, {}],
        [503, {}],
        [503, {}],
      ]),
    );
    expect(await http.get('http://127.0.0.1:1/works')).toEqual({
      ok: false,
      status: 503,
      reason: 'HTTP 503 after 4 attempts',
    });
    expect(waits).toEqual([1000, 2000, 4000]);
    const notFound = client(scriptedFetch([[404, { 'retry-after': '1' }]]));
    expect(await notFound.http.get('http://127.0.0.1:1/w')).toEqual({
      ok: false,
      status: 404,
      reason: 'HTTP 404',
    });
    expect(notFound.waits).toEqual([]);
  });
});
