import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { FetchLike, ResponseLike } from './http.js';

/**
 * A minimal `fetch` over node:http/https with keep-alive agents: POST/GET with a string body,
 * the whole response buffered (a minimal Response: ok, status, headers.get, text). Measured on Node 20 (docs/llm.md), it
 * costs about a quarter of the CPU per call of the built-in fetch (undici), which decides whether
 * thousands of concurrent calls are bound by the API's latency or by our own CPU. Rejects with
 * the signal's reason on abort and with a network error (with `code`) on a dropped connection.
 */
export function createNodeFetch(options: { maxSockets?: number } = {}): FetchLike {
  const agentOptions = { keepAlive: true, maxSockets: options.maxSockets ?? 256 };
  const agents = { http: new HttpAgent(agentOptions), https: new HttpsAgent(agentOptions) };
  // Parsing the same few endpoint URLs on every call is a measurable share of a call's CPU.
  const parsed = new Map<string, { url: URL; secure: boolean }>();
  const parse = (input: string) => {
    let hit = parsed.get(input);
    if (!hit) {
      const url = new URL(input);
      hit = { url, secure: url.protocol === 'https:' };
      if (parsed.size < 64) parsed.set(input, hit);
    }
    return hit;
  };
  return (input, init) =>
    new Promise<ResponseLike>((resolve, reject) => {
      const { url, secure } = parse(input);
      const signal = init.signal ?? undefined;
      if (signal?.aborted) return reject(signal.reason);
      const headers = init.headers as Record<string, string> | undefined;
      const body = typeof init.body === 'string' ? init.body : undefined;
      const req = (secure ? httpsRequest : httpRequest)(
        {
          protocol: url.protocol,
          hostname: url.hostname.replace(/^\[|\]$/g, ''),
          port: url.port,
          path: url.pathname + url.search,
          ...(url.username
            ? { auth: `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` }
            : {}),
          method: init.method ?? 'GET',
          headers:
            body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          agent: secure ? agents.https : agents.http,
        },
        (res) => collect(res, resolve, reject),
      );
      const onAbort = () =>
        req.destroy(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
      signal?.addEventListener('abort', onAbort, { once: true });
      req.on('close', () => signal?.removeEventListener('abort', onAbort));
      req.on('error', (error) => reject(signal?.aborted ? signal.reason : error));
      req.end(body);
    });
}

function collect(
  res: IncomingMessage,
  resolve: (r: ResponseLike) => void,
  reject: (e: unknown) => void,
): void {
  const chunks: Buffer[] = [];
  let done = false;
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('error', (error) => reject(error));
  res.on('end', () => {
    if (!res.complete) return;
    done = true;
    const status = res.statusCode ?? 0;
    const text = Buffer.concat(chunks).toString('utf8');
    const headers = res.headers;
    resolve({
      ok: status >= 200 && status < 300,
      status,
      headers: {
        get: (name) => {
          const v = headers[name.toLowerCase()];
          return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
        },
      },
      text: async () => text,
    });
  });
  res.on('close', () => {
    if (!done)
      reject(
        Object.assign(new Error('connection closed before the response was complete'), {
          code: 'ECONNRESET',
        }),
      );
  });
}
