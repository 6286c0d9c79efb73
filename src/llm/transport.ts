import type { ChatMessage, TokenUsage } from './provider.js';

/** The schema of a structured call as it goes on the wire. */
export interface WireSchema {
  /** A tool/schema name made of [a-zA-Z0-9_-] (APIs that need one reject other characters). */
  name: string;
  jsonSchema: Record<string, unknown>;
}

/** One request as a transport sends it: no policies (cache, retries, budget) left to apply. */
export interface WireRequest {
  messages: ChatMessage[];
  temperature?: number;
  maxTokens?: number;
  seed?: number;
  /** Present for structured calls: the transport asks the API for JSON matching it. */
  schema?: WireSchema;
}

/** What one attempt produced. A failure says whether trying again could help. */
export type WireReply = { ok: true; text: string; usage: TokenUsage | null } | WireFailure;

export interface WireFailure {
  ok: false;
  reason: string;
  /** True for rate limits, overload, 5xx, timeouts and network errors. */
  retryable: boolean;
  /** From `retry-after` / `retry-after-ms`, when the server sent one. */
  retryAfterMs?: number;
  status?: number;
  /** The reply body or model text, when there was one (secrets removed). */
  raw?: string;
}

/**
 * One API speaking one wire format (OpenAI chat completions, Anthropic messages, Gemini
 * generateContent, in-process llama.cpp). A transport makes exactly one attempt: it never retries,
 * caches or sleeps; `callWithPolicies` does that in one place for every transport. It never throws
 * on a failed call; it rejects only when `signal` aborts.
 */
export interface Transport {
  /** "openai", "anthropic", "gemini", "ollama", "vllm", "openai-compatible", "gguf". */
  readonly kind: string;
  readonly model: string;
  /** The API base URL, or null for in-process models. Part of the cache key. */
  readonly baseUrl: string | null;
  /** An upper bound on parallel calls this transport can serve (e.g. 1 for one in-process model). */
  readonly maxConcurrency?: number;
  /** Whether the API constrains output to a schema natively (reported by `llm ping`). */
  structuredOutput(): string;
  send(request: WireRequest, signal: AbortSignal): Promise<WireReply>;
}
