import { existsSync } from 'node:fs';
import { CitegeistError } from '../../core/index.js';
import { loadOptional, type ModuleImporter } from '../optional-module.js';
import type { ChatMessage } from '../provider.js';
import type { Transport, WireReply, WireRequest } from '../transport.js';

export const NODE_LLAMA_CPP_VERSION = '3.21.1';

/** The slice of node-llama-cpp 3.x this transport uses (typed here: the package is optional). */
interface NodeLlamaCpp {
  getLlama(options?: Record<string, unknown>): Promise<Llama>;
  LlamaChatSession: new (options: { contextSequence: Sequence; systemPrompt?: string }) => ChatSession;
}
interface Llama {
  loadModel(options: { modelPath: string; gpuLayers?: number | 'auto' }): Promise<Model>;
  createGrammarForJsonSchema(schema: unknown): Promise<unknown>;
}
interface Model {
  trainContextSize?: number;
  createContext(options?: { contextSize?: number }): Promise<Context>;
}
interface Context {
  getSequence(): Sequence;
}
interface Sequence {
  clearHistory(): Promise<void>;
  tokenMeter?: { usedInputTokens: number; usedOutputTokens: number };
}
interface ChatSession {
  setChatHistory(history: unknown[]): void;
  prompt(text: string, options: Record<string, unknown>): Promise<string>;
  dispose(options?: { disposeSequence?: boolean }): void;
}

export interface LlamaCppOptions {
  modelPath: string;
  contextSize?: number;
  gpuLayers?: number | 'auto';
  importer?: ModuleImporter;
}

/**
 * In-process GGUF through node-llama-cpp (an optional peer dependency, loaded on first use).
 * Structured output is grammar-constrained with the JSON-schema grammar. One model serves one call
 * at a time (maxConcurrency 1).
 */
export class LlamaCppTransport implements Transport {
  readonly kind = 'gguf';
  readonly model: string;
  readonly baseUrl = null;
  readonly maxConcurrency = 1;
  private loaded: Promise<{ lib: NodeLlamaCpp; llama: Llama; sequence: Sequence }> | undefined;
  private readonly grammars = new Map<string, Promise<unknown>>();

  constructor(private readonly options: LlamaCppOptions) {
    this.model = options.modelPath;
  }

  structuredOutput(): string {
    return 'JSON-schema grammar';
  }

  /** Loads the package and the model once; rejects with a CitegeistError when either is missing. */
  load(): Promise<{ lib: NodeLlamaCpp; llama: Llama; sequence: Sequence }> {
    this.loaded ??= (async () => {
      const lib = await loadOptional<NodeLlamaCpp>(
        'node-llama-cpp',
        NODE_LLAMA_CPP_VERSION,
        `The model gguf:${this.options.modelPath}`,
        this.options.importer,
      );
      if (!existsSync(this.options.modelPath)) {
        throw new CitegeistError(
          'FILE_NOT_FOUND',
          `The GGUF model file ${this.options.modelPath} does not exist.`,
          'Check the path in --model gguf:<path>.',
        );
      }
      const llama = await lib.getLlama();
      const modelOptions: { modelPath: string; gpuLayers?: number | 'auto' } = {
        modelPath: this.options.modelPath,
      };
      if (this.options.gpuLayers !== undefined) modelOptions.gpuLayers = this.options.gpuLayers;
      const model = await llama.loadModel(modelOptions);
      const context = await model.createContext(
        this.options.contextSize === undefined ? {} : { contextSize: this.options.contextSize },
      );
      return { lib, llama, sequence: context.getSequence() };
    })();
    return this.loaded;
  }

  async send(request: WireRequest, signal: AbortSignal): Promise<WireReply> {
    const { lib, llama, sequence } = await this.load();
    const session = new lib.LlamaChatSession({ contextSequence: sequence });
    const before = { ...(sequence.tokenMeter ?? { usedInputTokens: 0, usedOutputTokens: 0 }) };
    try {
      const { history, last } = toHistory(request.messages);
      session.setChatHistory(history);
      const options: Record<string, unknown> = { signal, stopOnAbortSignal: false };
      if (request.maxTokens !== undefined) options.maxTokens = request.maxTokens;
      if (request.temperature !== undefined) options.temperature = request.temperature;
      if (request.seed !== undefined) options.seed = request.seed;
      if (request.schema) options.grammar = await this.grammar(llama, request.schema.jsonSchema);
      const text = await session.prompt(last, options);
      const after = sequence.tokenMeter;
      const usage = after
        ? {
            inputTokens: after.usedInputTokens - before.usedInputTokens,
            outputTokens: after.usedOutputTokens - before.usedOutputTokens,
          }
        : null;
      return { ok: true, text, usage };
    } catch (error) {
      if (signal.aborted) throw signal.reason ?? error;
      return { ok: false, reason: `node-llama-cpp: ${(error as Error).message}`, retryable: false };
    } finally {
      session.dispose({ disposeSequence: false });
      await sequence.clearHistory();
    }
  }

  private grammar(llama: Llama, schema: Record<string, unknown>): Promise<unknown> {
    const key = JSON.stringify(schema);
    let grammar = this.grammars.get(key);
    if (!grammar) {
      const { $schema: _s, ...rest } = schema;
      grammar = llama.createGrammarForJsonSchema(rest);
      this.grammars.set(key, grammar);
    }
    return grammar;
  }
}

/** node-llama-cpp chat history: everything but the last user turn, which is the prompt. */
function toHistory(messages: ChatMessage[]): { history: unknown[]; last: string } {
  const lastUser = messages.findLastIndex((m) => m.role === 'user');
  const history = messages
    .filter((_, i) => i !== lastUser)
    .map((m) =>
      m.role === 'system'
        ? { type: 'system', text: m.content }
        : m.role === 'user'
          ? { type: 'user', text: m.content }
          : { type: 'model', response: [m.content] },
    );
  return { history, last: messages[lastUser]?.content ?? '' };
}
