import type { z } from 'zod';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Token counts as reported by the API (null fields when the API did not report them). */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface GenerateRequest {
  messages: ChatMessage[];
  temperature?: number;
  maxTokens?: number;
  seed?: number;
  /** Cancels the call (and its retries). A cancelled call rejects with an AbortError. */
  signal?: AbortSignal;
  /** Per-call timeout in milliseconds (overrides the provider default). */
  timeoutMs?: number;
}

/** What every call reports besides its content, success or failure alike. */
export interface CallMeta {
  /** Wall-clock milliseconds from the first attempt to the final answer, retries included. */
  latencyMs: number;
  usage: TokenUsage | null;
  /** USD from the price table; null when the model has no price (e.g. a local model). */
  costUsd: number | null;
  /** Transport retries (429/5xx/timeouts) plus schema repair turns. */
  retries: number;
  /** True when the reply came from the response cache. */
  cached: boolean;
}

export type GenerateResult =
  | ({ ok: true; text: string } & CallMeta)
  | ({ ok: false; reason: string; raw?: string; retryable?: boolean } & CallMeta);

export interface ObjectRequest<T> extends GenerateRequest {
  schema: z.ZodType<T>;
  /** A short name for the schema (used by providers that need one, e.g. tool names). */
  schemaName?: string;
  /** How many times a reply that fails validation is sent back with the error (default 2). */
  maxRepairs?: number;
}

export type ObjectResult<T> =
  | ({ ok: true; value: T; raw: string } & CallMeta)
  | ({ ok: false; reason: string; raw: string } & CallMeta);

/**
 * A language model behind any API. Implementations never throw on bad model output or on a failed
 * call: they return `ok: false` with the reason (and the raw text when there was one). They reject
 * only when the caller cancels (`signal`) or on a programming error.
 */
export interface LlmProvider {
  /** "openai:gpt-4.1-mini": used in cache keys, run metadata and reports. */
  readonly id: string;
  /** Model family ("openai", "anthropic", "google", "meta", "alibaba", …): for circularity checks. */
  readonly family: string;
  /** Context window in tokens, when known. */
  readonly contextWindow: number | null;
  generate(request: GenerateRequest): Promise<GenerateResult>;
  generateObject<T>(request: ObjectRequest<T>): Promise<ObjectResult<T>>;
}
