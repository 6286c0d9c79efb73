import { type FetchLike, joinUrl, postJson } from '../http.js';
import { createNodeFetch } from '../node-fetch.js';
import type { ChatMessage } from '../provider.js';
import type { Transport, WireReply, WireRequest } from '../transport.js';

export interface AnthropicOptions {
  model: string;
  apiKey: string;
  baseUrl?: string;
  /** Anthropic requires max_tokens; used when a request sets none (default 4096). */
  defaultMaxTokens?: number;
  fetch?: FetchLike;
}

export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
const VERSION = '2023-06-01';

/**
 * Anthropic messages API. Structured output is a forced tool call: the schema is the tool's
 * input_schema and tool_choice names it, so the reply is the tool input (a JSON object). A schema
 * whose root is not an object is wrapped as {value: …} and unwrapped again.
 */
export class AnthropicTransport implements Transport {
  readonly kind = 'anthropic';
  readonly model: string;
  readonly baseUrl: string;
  private readonly fetchImpl: FetchLike;

  readonly #apiKey: string;
  private readonly options: Omit<AnthropicOptions, 'apiKey'>;

  constructor(options: AnthropicOptions) {
    this.model = options.model;
    this.baseUrl = (options.baseUrl ?? ANTHROPIC_BASE_URL).replace(/\/+$/, '');
    this.fetchImpl = options.fetch ?? createNodeFetch();
    this.#apiKey = options.apiKey;
    const { apiKey: _k, ...rest } = options;
    this.options = rest;
  }

  structuredOutput(): string {
    return 'forced tool call';
  }

  async send(request: WireRequest, signal: AbortSignal): Promise<WireReply> {
    const wrapped = request.schema ? wrapSchema(request.schema.jsonSchema) : null;
    const body: Record<string, unknown> = {
      model: this.model,
      max_tokens: request.maxTokens ?? this.options.defaultMaxTokens ?? 4096,
      messages: toAnthropicMessages(request.messages),
    };
    const system = request.messages.filter((m) => m.role === 'system').map((m) => m.content);
    if (system.length > 0) body.system = system.join('\n\n');
    if (request.temperature !== undefined) body.temperature = request.temperature;
    if (request.schema && wrapped) {
      body.tools = [
        { name: request.schema.name, description: 'Record the answer.', input_schema: wrapped.schema },
      ];
      body.tool_choice = { type: 'tool', name: request.schema.name };
    }
    const result = await postJson(
      this.fetchImpl,
      joinUrl(this.baseUrl, 'v1/messages'),
      { 'x-api-key': this.#apiKey, 'anthropic-version': VERSION },
      body,
      signal,
      [this.#apiKey],
    );
    if (!result.ok) {
      const { body: _b, ...failure } = result;
      // 529 "overloaded" is Anthropic's rate signal; isRetryableStatus already covers it (>= 500).
      return failure;
    }
    return parseMessage(result.json, wrapped?.wrapped ?? false);
  }
}

/** System messages go to `system`; consecutive same-role turns are merged (the API alternates). */
export function toAnthropicMessages(
  messages: ChatMessage[],
): { role: 'user' | 'assistant'; content: string }[] {
  const out: { role: 'user' | 'assistant'; content: string }[] = [];
  for (const m of messages) {
    if (m.role === 'system') continue;
    const last = out.at(-1);
    if (last && last.role === m.role) last.content += `\n\n${m.content}`;
    else out.push({ role: m.role, content: m.content });
  }
  if (out[0]?.role !== 'user') out.unshift({ role: 'user', content: '(start)' });
  return out;
}

function wrapSchema(schema: Record<string, unknown>): { schema: Record<string, unknown>; wrapped: boolean } {
  if (schema.type === 'object') return { schema, wrapped: false };
  const { $schema: _s, ...inner } = schema;
  return { schema: { type: 'object', properties: { value: inner }, required: ['value'] }, wrapped: true };
}

interface AnthropicMessage {
  content?: ({ type: 'text'; text: string } | { type: 'tool_use'; input: unknown } | { type: string })[];
  stop_reason?: string;
  usage?: { input_tokens?: number; output_tokens?: number };
}

function parseMessage(json: unknown, wrapped: boolean): WireReply {
  const data = json as AnthropicMessage;
  const usage =
    typeof data.usage?.input_tokens === 'number'
      ? { inputTokens: data.usage.input_tokens, outputTokens: data.usage.output_tokens ?? 0 }
      : null;
  if (!Array.isArray(data.content)) {
    return {
      ok: false,
      reason: 'the response has no content array',
      retryable: true,
      raw: JSON.stringify(json).slice(0, 2000),
    };
  }
  for (const block of data.content) {
    if (block.type === 'tool_use' && 'input' in block) {
      const input = wrapped ? (block.input as { value?: unknown } | null)?.value : block.input;
      return { ok: true, text: JSON.stringify(input ?? null), usage };
    }
  }
  const text = data.content.map((b) => (b.type === 'text' && 'text' in b ? b.text : '')).join('');
  if (data.stop_reason === 'refusal')
    return { ok: false, reason: 'the model refused', retryable: false, raw: text };
  return { ok: true, text, usage };
}
