import { type FetchLike, joinUrl, postJson } from '../http.js';
import { createNodeFetch } from '../node-fetch.js';
import type { ChatMessage, TokenUsage } from '../provider.js';
import type { Transport, WireReply, WireRequest } from '../transport.js';

/**
 * How structured output is requested: `json_schema` (response_format with the schema),
 * `json_object` (JSON mode plus the schema in the prompt), `prompt` (the schema in the prompt
 * only), or `auto`: start with json_schema and step down on a 400 that says it is unsupported.
 */
export type StructuredMode = 'auto' | 'json_schema' | 'json_object' | 'prompt';

export interface OpenAiCompatibleOptions {
  kind: string;
  model: string;
  baseUrl: string;
  apiKey?: string;
  structuredMode?: StructuredMode;
  /** OpenAI's own API wants max_completion_tokens; most compatible servers want max_tokens. */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  fetch?: FetchLike;
  headers?: Record<string, string>;
}

const DOWNGRADE: Record<string, 'json_object' | 'prompt' | undefined> = {
  json_schema: 'json_object',
  json_object: 'prompt',
};

/** A 400/422 that means "this server does not do that response_format". */
function saysUnsupported(status: number | undefined, body: string): boolean {
  if (status !== 400 && status !== 422 && status !== 404 && status !== 501) return false;
  return /response_format|json_schema|json_object|structured|not supported|unsupported|unknown (field|parameter)/i.test(
    body,
  );
}

/** OpenAI chat completions: OpenAI, vLLM, Ollama, llama.cpp server, LM Studio, TGI, Together… */
export class OpenAiCompatibleTransport implements Transport {
  readonly kind: string;
  readonly model: string;
  readonly baseUrl: string;
  private mode: Exclude<StructuredMode, 'auto'>;
  private readonly canDowngrade: boolean;
  private readonly fetchImpl: FetchLike;

  readonly #apiKey: string | undefined;
  private readonly options: Omit<OpenAiCompatibleOptions, 'apiKey'>;

  constructor(options: OpenAiCompatibleOptions) {
    this.kind = options.kind;
    this.model = options.model;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    const mode = options.structuredMode ?? 'auto';
    this.mode = mode === 'auto' ? 'json_schema' : mode;
    this.canDowngrade = mode === 'auto';
    this.fetchImpl = options.fetch ?? createNodeFetch();
    this.#apiKey = options.apiKey;
    const { apiKey: _k, ...rest } = options;
    this.options = rest;
  }

  structuredOutput(): string {
    return this.mode;
  }

  async send(request: WireRequest, signal: AbortSignal): Promise<WireReply> {
    for (;;) {
      const mode = this.mode;
      const result = await postJson(
        this.fetchImpl,
        joinUrl(this.baseUrl, 'chat/completions'),
        this.headers(),
        this.body(request, mode),
        signal,
        this.#apiKey ? [this.#apiKey] : [],
      );
      if (result.ok) return parseChatCompletion(result.json);
      const next = DOWNGRADE[mode];
      if (request.schema && this.canDowngrade && next && saysUnsupported(result.status, result.body ?? '')) {
        if (this.mode === mode) this.mode = next;
        continue;
      }
      const { body: _b, ...failure } = result;
      return failure;
    }
  }

  private headers(): Record<string, string> {
    const h: Record<string, string> = { ...this.options.headers };
    if (this.#apiKey) h.authorization = `Bearer ${this.#apiKey}`;
    return h;
  }

  private body(request: WireRequest, mode: Exclude<StructuredMode, 'auto'>): Record<string, unknown> {
    let messages: ChatMessage[] = request.messages;
    const body: Record<string, unknown> = { model: this.model };
    if (request.schema) {
      if (mode === 'json_schema') {
        body.response_format = {
          type: 'json_schema',
          json_schema: { name: request.schema.name, schema: request.schema.jsonSchema, strict: false },
        };
      } else {
        if (mode === 'json_object') body.response_format = { type: 'json_object' };
        messages = withInstruction(messages, request.schema.jsonSchema);
      }
    }
    body.messages = messages;
    if (request.temperature !== undefined) body.temperature = request.temperature;
    if (request.seed !== undefined) body.seed = request.seed;
    if (request.maxTokens !== undefined)
      body[this.options.maxTokensField ?? 'max_tokens'] = request.maxTokens;
    return body;
  }
}

/** Appends the JSON instruction to the last user message (JSON mode also needs the word "JSON"). */
export function withInstruction(messages: ChatMessage[], jsonSchema: unknown): ChatMessage[] {
  const instruction = `\n\nReply with one JSON value only, no prose, that validates against this JSON Schema:\n${JSON.stringify(jsonSchema)}`;
  const out = [...messages];
  for (let i = out.length - 1; i >= 0; i--) {
    const m = out[i];
    if (m?.role === 'user') {
      out[i] = { role: 'user', content: m.content + instruction };
      return out;
    }
  }
  out.push({ role: 'user', content: instruction.trim() });
  return out;
}

interface ChatCompletion {
  choices?: { message?: { content?: string | null; refusal?: string | null }; finish_reason?: string }[];
  usage?: {
    prompt_tokens?: number;
    completion_tokens?: number;
    total_tokens?: number;
    input_tokens?: number;
    output_tokens?: number;
  };
}

const count = (x: unknown): number | undefined =>
  typeof x === 'number' && Number.isFinite(x) ? x : undefined;

/**
 * The usage a server reported: chat-completions names (`prompt_tokens`, `completion_tokens`), the
 * names some gateways use instead (`input_tokens`, `output_tokens`), or only `total_tokens`
 * (counted as output beyond the prompt). Null when it reported none: unknown, never 0.
 */
export function parseUsage(usage: ChatCompletion['usage']): TokenUsage | null {
  const input = count(usage?.prompt_tokens) ?? count(usage?.input_tokens);
  const output = count(usage?.completion_tokens) ?? count(usage?.output_tokens);
  const total = count(usage?.total_tokens);
  if (input === undefined && output === undefined) {
    return total === undefined ? null : { inputTokens: 0, outputTokens: total };
  }
  const inputTokens = input ?? 0;
  return {
    inputTokens,
    outputTokens: output ?? (total === undefined ? 0 : Math.max(0, total - inputTokens)),
  };
}

export function parseChatCompletion(json: unknown): WireReply {
  const data = json as ChatCompletion;
  const choice = data.choices?.[0];
  const usage = parseUsage(data.usage);
  if (!choice?.message) {
    return {
      ok: false,
      reason: 'the response has no choices[0].message',
      retryable: true,
      raw: JSON.stringify(json).slice(0, 2000),
    };
  }
  if (choice.message.refusal) {
    return { ok: false, reason: `the model refused: ${choice.message.refusal}`, retryable: false };
  }
  const text = choice.message.content ?? '';
  if (text === '' && choice.finish_reason === 'content_filter') {
    return { ok: false, reason: 'the reply was blocked by the content filter', retryable: false };
  }
  return { ok: true, text, usage };
}
