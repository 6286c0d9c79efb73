import type {
  CallMeta,
  GenerateRequest,
  GenerateResult,
  LlmProvider,
  ObjectRequest,
  ObjectResult,
} from '../llm/index.js';
import { generateValidated } from '../llm/index.js';

/** One scripted reply: text, a function of the request, or a call failure. */
export type FakeReply =
  | string
  | ((request: GenerateRequest, call: number) => string | { fail: string })
  | { fail: string };

export interface FakeLlmOptions {
  id?: string;
  family?: string;
  contextWindow?: number | null;
  /** Usage reported per call (default: characters / 4 of prompt and reply). */
  usage?: (request: GenerateRequest, reply: string) => { inputTokens: number; outputTokens: number };
  costPerCallUsd?: number | null;
  latencyMs?: number;
}

/**
 * A scripted LlmProvider for tests. Replies are consumed in order (a function reply can answer by
 * looking at the request); every request is recorded in `calls`. When the script runs out it
 * throws, so a test never passes by accident on an unexpected extra call.
 */
export class FakeLlm implements LlmProvider {
  readonly id: string;
  readonly family: string;
  readonly contextWindow: number | null;
  readonly calls: GenerateRequest[] = [];
  private readonly script: FakeReply[];
  private readonly options: FakeLlmOptions;

  constructor(
    script: FakeReply[] | ((request: GenerateRequest, call: number) => string | { fail: string }),
    options: FakeLlmOptions = {},
  ) {
    this.script = typeof script === 'function' ? [] : [...script];
    this.responder = typeof script === 'function' ? script : undefined;
    this.options = options;
    this.id = options.id ?? 'fake:scripted';
    this.family = options.family ?? 'fake';
    this.contextWindow = options.contextWindow ?? 128_000;
  }

  private readonly responder:
    | ((request: GenerateRequest, call: number) => string | { fail: string })
    | undefined;

  /** Replies not yet consumed. */
  get remaining(): number {
    return this.script.length;
  }

  async generate(request: GenerateRequest): Promise<GenerateResult> {
    request.signal?.throwIfAborted();
    const call = this.calls.length;
    this.calls.push(request);
    let reply: string | { fail: string };
    if (this.responder) {
      reply = this.responder(request, call);
    } else {
      const next = this.script.shift();
      if (next === undefined) {
        throw new Error(`FakeLlm ${this.id}: script exhausted at call ${call + 1}`);
      }
      reply = typeof next === 'function' ? next(request, call) : next;
    }
    if (this.options.latencyMs) await new Promise((r) => setTimeout(r, this.options.latencyMs));
    const meta = (text: string): CallMeta => ({
      latencyMs: this.options.latencyMs ?? 0,
      usage: (this.options.usage ?? defaultUsage)(request, text),
      costUsd: this.options.costPerCallUsd ?? null,
      retries: 0,
      cached: false,
    });
    if (typeof reply === 'string') return { ok: true, text: reply, ...meta(reply) };
    return { ok: false, reason: reply.fail, ...meta('') };
  }

  generateObject<T>(request: ObjectRequest<T>): Promise<ObjectResult<T>> {
    return generateValidated(request, (req) => this.generate(req));
  }
}

function defaultUsage(request: GenerateRequest, reply: string) {
  const prompt = request.messages.reduce((n, m) => n + m.content.length, 0);
  return { inputTokens: Math.ceil(prompt / 4), outputTokens: Math.ceil(reply.length / 4) };
}
