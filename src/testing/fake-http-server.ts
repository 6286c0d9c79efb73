import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatMessage } from '../llm/index.js';

/** What the fake server does with one request. */
export type FakeAction =
  /** A normal reply whose model text is `text` (usage defaults to characters / 4). */
  | { text: string; usage?: { input: number; output: number }; delayMs?: number }
  /** An HTTP error; `retryAfter` sets the retry-after header (seconds or an HTTP date). */
  | { status: number; message?: string; retryAfter?: string; retryAfterMs?: number; delayMs?: number }
  /** Never answers (until the client gives up or the server closes). */
  | { hang: true }
  /** Sends half of a valid HTTP body, then drops the connection. */
  | { truncateBody: true; text?: string };

/** A request as the fake server understood it, in provider-neutral terms. */
export interface FakeRequest {
  path: string;
  model: string | undefined;
  messages: ChatMessage[];
  /** The JSON Schema the client asked the API to enforce, if any. */
  schema: unknown;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

export type FakeResponder = (request: FakeRequest, index: number) => FakeAction;

export interface FakeServerOptions {
  /** Scripted actions in order, or a function of the request. */
  replies?: FakeAction[] | FakeResponder;
  /** Added before every reply (ms). */
  latencyMs?: number;
}

/** Ready-made faults and misbehaving model replies. */
export const faults = {
  rateLimit: (retryAfter = '0'): FakeAction => ({ status: 429, message: 'Rate limit reached', retryAfter }),
  serverError: (status = 500): FakeAction => ({ status, message: 'internal error' }),
  hang: (): FakeAction => ({ hang: true }),
  truncatedBody: (text = '{"ok": true}'): FakeAction => ({ truncateBody: true, text }),
  /** Model text cut off mid-JSON (as when max_tokens is hit). */
  truncatedJson: (json: string): FakeAction => ({
    text: json.slice(0, Math.max(1, Math.floor(json.length / 2))),
  }),
  invalidJson: (): FakeAction => ({ text: "Sure! {answer: 'yes', score: four}" }),
  /** Valid JSON that ignores the requested schema. */
  ignoreSchema: (): FakeAction => ({ text: '{"message": "I prefer my own format"}' }),
};

/** One API's request/response shapes, so one server core can speak OpenAI, Anthropic and Gemini. */
export interface Dialect {
  matches(path: string): boolean;
  parse(path: string, body: Record<string, unknown>): Pick<FakeRequest, 'model' | 'messages' | 'schema'>;
  reply(request: FakeRequest, text: string, usage: { input: number; output: number }): unknown;
  error(status: number, message: string): unknown;
  /** Other endpoints (e.g. embeddings) the dialect answers without the script. */
  extra?(path: string, body: Record<string, unknown>): unknown | undefined;
  /** An action that pre-empts the script for this request (e.g. "unsupported parameter"). */
  intercept?(request: FakeRequest): FakeAction | undefined;
}

/**
 * A fake model API on 127.0.0.1 (ephemeral port) with scripted replies, latency and faults on
 * demand. Records every request. When its script runs out it answers 418 (not retryable) and
 * counts the call in `unexpected`, so a test notices extra calls.
 */
export class FakeHttpServer {
  readonly requests: FakeRequest[] = [];
  unexpected = 0;
  private server: Server | undefined;
  private readonly script: FakeAction[];
  private readonly responder: FakeResponder | undefined;
  private handled = 0;

  constructor(
    private readonly dialect: Dialect,
    private readonly options: FakeServerOptions = {},
  ) {
    this.script = Array.isArray(options.replies) ? [...options.replies] : [];
    this.responder = typeof options.replies === 'function' ? options.replies : undefined;
  }

  /** The base URL once started, e.g. http://127.0.0.1:43121. */
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.url = `http://127.0.0.1:${port}`;
    return this;
  }

  /** Adds actions to the end of the script. */
  push(...actions: FakeAction[]): void {
    this.script.push(...actions);
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    this.server = undefined;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = req.url ?? '/';
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
    } catch {
      return send(res, 400, this.dialect.error(400, 'request body is not JSON'));
    }
    const extra = this.dialect.extra?.(path, body);
    if (extra !== undefined) return send(res, 200, extra);
    if (!this.dialect.matches(path)) return send(res, 404, this.dialect.error(404, `no route ${path}`));
    const request: FakeRequest = { path, headers: req.headers, body, ...this.dialect.parse(path, body) };
    this.requests.push(request);
    const intercepted = this.dialect.intercept?.(request);
    const index = intercepted ? this.handled : this.handled++;
    const action = intercepted ?? (this.responder ? this.responder(request, index) : this.script.shift());
    if (!action) {
      this.unexpected++;
      return send(res, 418, this.dialect.error(418, `fake server script exhausted at request ${index + 1}`));
    }
    if ('hang' in action) return; // the socket stays open until the client aborts or close()
    const delay = (this.options.latencyMs ?? 0) + ('delayMs' in action ? (action.delayMs ?? 0) : 0);
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    if (res.destroyed) return;
    if ('truncateBody' in action) {
      const full = JSON.stringify(this.dialect.reply(request, action.text ?? '', { input: 1, output: 1 }));
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(full.length) });
      res.write(full.slice(0, Math.floor(full.length / 2)));
      setTimeout(() => res.destroy(), 5);
      return;
    }
    if ('status' in action) {
      const headers: Record<string, string> = {};
      if (action.retryAfter !== undefined) headers['retry-after'] = action.retryAfter;
      if (action.retryAfterMs !== undefined) headers['retry-after-ms'] = String(action.retryAfterMs);
      return send(res, action.status, this.dialect.error(action.status, action.message ?? 'error'), headers);
    }
    const usage = action.usage ?? {
      input: Math.ceil(request.messages.reduce((n, m) => n + m.content.length, 0) / 4),
      output: Math.ceil(action.text.length / 4),
    };
    return send(res, 200, this.dialect.reply(request, action.text, usage));
  }
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

/** Deterministic unit vectors for fake embedding endpoints (shared words → close vectors). */
export function hashVector(text: string, dimensions: number): number[] {
  const v = new Array<number>(dimensions).fill(0);
  for (const word of text.toLowerCase().match(/\p{L}[\p{L}\p{N}]*|\p{N}+/gu) ?? []) {
    let h = 2166136261;
    for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619);
    const idx = (h >>> 0) % dimensions;
    v[idx] = (v[idx] ?? 0) + ((h >>> 31) & 1 ? 1 : -1);
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}
