import type { ChatMessage } from '../llm/index.js';
import { type Dialect, FakeHttpServer, type FakeServerOptions } from './fake-http-server.js';

const geminiDialect: Dialect = {
  matches: (path) => /\/v1beta\/models\/[^/]+:generateContent$/.test(path),
  parse: (path, body) => {
    const messages: ChatMessage[] = [];
    const system = body.systemInstruction as { parts?: { text?: string }[] } | undefined;
    if (system?.parts)
      messages.push({ role: 'system', content: system.parts.map((p) => p.text ?? '').join('') });
    for (const c of (body.contents ?? []) as { role: string; parts: { text?: string }[] }[]) {
      const content = c.parts.map((p) => p.text ?? '').join('\n\n');
      messages.push({ role: c.role === 'model' ? 'assistant' : 'user', content });
    }
    const model = decodeURIComponent(/\/models\/([^/:]+):/.exec(path)?.[1] ?? '');
    const config = body.generationConfig as { responseSchema?: unknown } | undefined;
    return { model, messages, schema: config?.responseSchema };
  },
  reply: (_request, text, usage) => ({
    candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: {
      promptTokenCount: usage.input,
      candidatesTokenCount: usage.output,
      totalTokenCount: usage.input + usage.output,
    },
  }),
  error: (status, message) => ({
    error: { code: status, message, status: status === 429 ? 'RESOURCE_EXHAUSTED' : 'INTERNAL' },
  }),
};

/** A fake Gemini API on 127.0.0.1 (POST /v1beta/models/<model>:generateContent). */
export class FakeGeminiServer extends FakeHttpServer {
  constructor(options: FakeServerOptions = {}) {
    super(geminiDialect, options);
  }
}
