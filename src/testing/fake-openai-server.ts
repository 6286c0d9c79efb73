import type { ChatMessage } from '../llm/index.js';
import { type Dialect, FakeHttpServer, type FakeServerOptions, hashVector } from './fake-http-server.js';

export interface FakeOpenAiOptions extends FakeServerOptions {
  /** response_format types this server rejects with a 400 "not supported" (to test downgrading). */
  unsupported?: ('json_schema' | 'json_object')[];
  /** Dimensions of /embeddings vectors (default 32). */
  embeddingDimensions?: number;
}

interface Records {
  embeddingRequests: { model: string; input: string[] }[];
  rejected: string[];
}

/** The OpenAI chat-completions (and embeddings) dialect. */
function openAiDialect(options: FakeOpenAiOptions, records: Records): Dialect {
  return {
    matches: (path) => path.endsWith('/chat/completions'),
    parse: (_path, body) => {
      const format = body.response_format as { json_schema?: { schema?: unknown } } | undefined;
      return {
        model: body.model as string | undefined,
        messages: (body.messages ?? []) as ChatMessage[],
        schema: format?.json_schema?.schema,
      };
    },
    intercept: (request) => {
      const type = (request.body.response_format as { type?: 'json_schema' | 'json_object' } | undefined)
        ?.type;
      if (!type || !options.unsupported?.includes(type)) return undefined;
      records.rejected.push(type);
      return { status: 400, message: `response_format type "${type}" is not supported by this server` };
    },
    reply: (request, text, usage) => ({
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      model: request.model,
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      usage: {
        prompt_tokens: usage.input,
        completion_tokens: usage.output,
        total_tokens: usage.input + usage.output,
      },
    }),
    error: (status, message) => ({
      error: { message, type: status === 429 ? 'rate_limit' : 'error', code: status },
    }),
    extra: (path, body) => {
      if (!path.endsWith('/embeddings')) return undefined;
      const input = (Array.isArray(body.input) ? body.input : [body.input]) as string[];
      records.embeddingRequests.push({ model: body.model as string, input });
      const dims = options.embeddingDimensions ?? 32;
      const tokens = Math.ceil(input.join(' ').length / 4);
      return {
        object: 'list',
        data: input.map((text, index) => ({ object: 'embedding', index, embedding: hashVector(text, dims) })),
        model: body.model,
        usage: { prompt_tokens: tokens, total_tokens: tokens },
      };
    },
  };
}

/**
 * A fake OpenAI-compatible server (POST …/chat/completions and …/embeddings) on 127.0.0.1.
 * With `unsupported`, it answers a response_format it "does not support" with a 400.
 */
export class FakeOpenAiServer extends FakeHttpServer {
  readonly embeddingRequests: Records['embeddingRequests'];
  readonly rejected: string[];

  constructor(options: FakeOpenAiOptions = {}) {
    const records: Records = { embeddingRequests: [], rejected: [] };
    super(openAiDialect(options, records), options);
    this.embeddingRequests = records.embeddingRequests;
    this.rejected = records.rejected;
  }
}
