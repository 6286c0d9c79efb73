import type { ChatMessage } from '../llm/index.js';
import { type Dialect, FakeHttpServer, type FakeServerOptions } from './fake-http-server.js';

/** The Anthropic messages dialect: a forced tool call is answered with a tool_use block. */
const anthropicDialect: Dialect = {
  matches: (path) => path.endsWith('/v1/messages'),
  parse: (_path, body) => {
    const messages: ChatMessage[] = [];
    if (typeof body.system === 'string') messages.push({ role: 'system', content: body.system });
    for (const m of (body.messages ?? []) as { role: 'user' | 'assistant'; content: string }[]) {
      messages.push({
        role: m.role,
        content: typeof m.content === 'string' ? m.content : JSON.stringify(m.content),
      });
    }
    const tools = body.tools as { input_schema?: unknown }[] | undefined;
    return { model: body.model as string | undefined, messages, schema: tools?.[0]?.input_schema };
  },
  reply: (request, text, usage) => {
    const choice = request.body.tool_choice as { type?: string; name?: string } | undefined;
    let content: unknown[] = [{ type: 'text', text }];
    if (choice?.type === 'tool') {
      try {
        content = [{ type: 'tool_use', id: 'toolu_fake', name: choice.name, input: JSON.parse(text) }];
      } catch {
        // a model that ignores the forced tool: plain text, as the real API can return
      }
    }
    return {
      id: 'msg_fake',
      type: 'message',
      role: 'assistant',
      model: request.model,
      content,
      stop_reason: choice?.type === 'tool' ? 'tool_use' : 'end_turn',
      usage: { input_tokens: usage.input, output_tokens: usage.output },
    };
  },
  error: (status, message) => ({
    type: 'error',
    error: {
      type: status === 429 ? 'rate_limit_error' : status === 529 ? 'overloaded_error' : 'api_error',
      message,
    },
  }),
};

/** A fake Anthropic messages API on 127.0.0.1 (POST /v1/messages). */
export class FakeAnthropicServer extends FakeHttpServer {
  constructor(options: FakeServerOptions = {}) {
    super(anthropicDialect, options);
  }
}
