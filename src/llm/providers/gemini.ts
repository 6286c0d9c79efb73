import { type FetchLike, joinUrl, postJson } from '../http.js';
import { createNodeFetch } from '../node-fetch.js';
import type { ChatMessage } from '../provider.js';
import type { Transport, WireReply, WireRequest } from '../transport.js';
import { toGeminiSchema } from './gemini-schema.js';

export interface GeminiOptions {
  model: string;
  apiKey: string;
  baseUrl?: string;
  fetch?: FetchLike;
}

export const GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com';

/**
 * Gemini `generateContent` with `responseMimeType: application/json` and a `responseSchema`
 * converted to Gemini's subset. The key goes in the x-goog-api-key header, never in the URL.
 */
export class GeminiTransport implements Transport {
  readonly kind = 'gemini';
  readonly model: string;
  readonly baseUrl: string;
  private readonly fetchImpl: FetchLike;

  readonly #apiKey: string;

  constructor(options: GeminiOptions) {
    this.model = options.model;
    this.baseUrl = (options.baseUrl ?? GEMINI_BASE_URL).replace(/\/+$/, '');
    this.fetchImpl = options.fetch ?? createNodeFetch();
    this.#apiKey = options.apiKey;
  }

  structuredOutput(): string {
    return 'responseSchema';
  }

  async send(request: WireRequest, signal: AbortSignal): Promise<WireReply> {
    const config: Record<string, unknown> = {};
    if (request.temperature !== undefined) config.temperature = request.temperature;
    if (request.maxTokens !== undefined) config.maxOutputTokens = request.maxTokens;
    if (request.seed !== undefined) config.seed = request.seed;
    if (request.schema) {
      config.responseMimeType = 'application/json';
      config.responseSchema = toGeminiSchema(request.schema.jsonSchema);
    }
    const body: Record<string, unknown> = { contents: toGeminiContents(request.messages) };
    const system = request.messages.filter((m) => m.role === 'system').map((m) => m.content);
    if (system.length > 0) body.systemInstruction = { parts: [{ text: system.join('\n\n') }] };
    if (Object.keys(config).length > 0) body.generationConfig = config;
    const result = await postJson(
      this.fetchImpl,
      joinUrl(this.baseUrl, `v1beta/models/${encodeURIComponent(this.model)}:generateContent`),
      { 'x-goog-api-key': this.#apiKey },
      body,
      signal,
      [this.#apiKey],
    );
    if (!result.ok) {
      const { body: _b, ...failure } = result;
      return failure;
    }
    return parseGenerateContent(result.json);
  }
}

export function toGeminiContents(
  messages: ChatMessage[],
): { role: 'user' | 'model'; parts: { text: string }[] }[] {
  const out: { role: 'user' | 'model'; parts: { text: string }[] }[] = [];
  for (const m of messages) {
    if (m.role === 'system') continue;
    const role = m.role === 'assistant' ? 'model' : 'user';
    const last = out.at(-1);
    if (last && last.role === role) last.parts.push({ text: m.content });
    else out.push({ role, parts: [{ text: m.content }] });
  }
  return out;
}

interface GenerateContentResponse {
  candidates?: { content?: { parts?: { text?: string }[] }; finishReason?: string }[];
  promptFeedback?: { blockReason?: string };
  usageMetadata?: { promptTokenCount?: number; candidatesTokenCount?: number };
}

function parseGenerateContent(json: unknown): WireReply {
  const data = json as GenerateContentResponse;
  const usage =
    typeof data.usageMetadata?.promptTokenCount === 'number'
      ? {
          inputTokens: data.usageMetadata.promptTokenCount,
          outputTokens: data.usageMetadata.candidatesTokenCount ?? 0,
        }
      : null;
  if (data.promptFeedback?.blockReason) {
    return {
      ok: false,
      reason: `the prompt was blocked: ${data.promptFeedback.blockReason}`,
      retryable: false,
    };
  }
  const candidate = data.candidates?.[0];
  if (!candidate) {
    return {
      ok: false,
      reason: 'the response has no candidates',
      retryable: true,
      raw: JSON.stringify(json).slice(0, 2000),
    };
  }
  const text = (candidate.content?.parts ?? []).map((p) => p.text ?? '').join('');
  if (text === '' && candidate.finishReason && candidate.finishReason !== 'STOP') {
    return { ok: false, reason: `no text (finishReason ${candidate.finishReason})`, retryable: false };
  }
  return { ok: true, text, usage };
}
