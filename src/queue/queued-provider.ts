import {
  type AdaptiveLimiter,
  type Budget,
  type CacheMode,
  type CallEvent,
  composeCall,
  costOf,
  type GenerateRequest,
  type GenerateResult,
  generateValidated,
  jsonSchemaOf,
  type LlmProvider,
  type ModelCall,
  modelFamily,
  modelId,
  type ObjectRequest,
  type ObjectResult,
  type Price,
  type PriceTable,
  parseModelString,
  policyStack,
  priceFor,
  type WireSchema,
  wireName,
} from '../llm/index.js';
import type { CallJob, CallReply, QueueRun } from './call-job.js';
import type { QueueCoordinator } from './coordinator.js';

export interface QueuedProviderOptions {
  coordinator: QueueCoordinator;
  /** The run the calls belong to (named by the command before its first call). */
  run: () => QueueRun;
  /** Calls in flight across the workers (the coordinator's --concurrency). */
  limiter: AdaptiveLimiter;
  /** Held here, on the coordinator: no job is enqueued once the projected spend would pass it. */
  budget?: Budget | null;
  prices?: PriceTable;
  /** Sent with each job: workers read and write their cache as this says. */
  cacheMode?: CacheMode;
  expectedOutputTokens?: number;
  onCall?: (event: CallEvent) => void;
}

/**
 * A model whose calls run on queue workers. The prompts are built, replies parsed and structured
 * output validated (and repaired) here, exactly as in a local run; only the call itself travels,
 * as a job holding the messages and settings, never a key. The same policy stack as a local call
 * (`policyStack`) reserves the budget before a job is enqueued and settles it with the cost of the
 * usage the worker reports, priced with this machine's table, so spend is capped and counted as
 * locally; cache and retries are the worker's.
 */
export class QueuedProvider implements LlmProvider {
  readonly id: string;
  readonly family: string;
  readonly contextWindow: number | null = null;
  readonly structuredOutput = 'chosen by each worker';
  private readonly price: Price | null;
  private readonly call: ModelCall;
  private readonly schemas = new WeakMap<object, Record<string, unknown>>();

  constructor(
    spec: string,
    private readonly options: QueuedProviderOptions,
  ) {
    const parsed = parseModelString(spec);
    this.id = modelId(parsed);
    this.family = modelFamily(parsed.model);
    this.price = priceFor(this.id, parsed.model, options.prices);
    this.call = this.submit();
  }

  generate(request: GenerateRequest): Promise<GenerateResult> {
    return this.call(request, undefined);
  }

  generateObject<T>(request: ObjectRequest<T>): Promise<ObjectResult<T>> {
    let jsonSchema = this.schemas.get(request.schema);
    if (!jsonSchema) {
      jsonSchema = jsonSchemaOf(request.schema);
      this.schemas.set(request.schema, jsonSchema);
    }
    const schema: WireSchema = { name: wireName(request.schemaName ?? 'result'), jsonSchema };
    return generateValidated(request, (req) => this.call(req, schema));
  }

  /** The coordinator's submit under the same policy stack as a local call (budget, limiter, observer). */
  private submit(): ModelCall {
    const { coordinator, run, cacheMode } = this.options;
    const price = this.price;
    const base: ModelCall = async (request, schema) => {
      const reply: CallReply = await coordinator.submit(
        {
          model: this.id,
          run: run(),
          request: wireRequest(request),
          ...(schema ? { schema } : {}),
          cacheMode: cacheMode ?? 'normal',
        },
        request.signal,
      );
      // Priced here, with this machine's table; a reply the worker's cache gave costs 0 (or unknown).
      const meta = { latencyMs: reply.latencyMs, retries: reply.retries, cached: reply.cached };
      if (!reply.ok) {
        return {
          ok: false,
          reason: reply.reason,
          ...(reply.raw !== undefined ? { raw: reply.raw } : {}),
          usage: null,
          costUsd: null,
          ...meta,
        };
      }
      const costUsd = reply.cached ? (price && reply.usage ? 0 : null) : costOf(reply.usage, price);
      return { ok: true, text: reply.text, usage: reply.usage, costUsd, ...meta };
    };
    return composeCall(
      base,
      policyStack({
        providerId: this.id,
        price,
        onCall: this.options.onCall,
        budget: this.options.budget ?? null,
        expectedOutputTokens: this.options.expectedOutputTokens,
        limiter: this.options.limiter,
      }),
    );
  }
}

/** The parts of a request that travel (not its AbortSignal). */
function wireRequest(r: GenerateRequest): CallJob['request'] {
  return {
    messages: r.messages.map((m) => ({ role: m.role, content: m.content })),
    ...(r.temperature !== undefined ? { temperature: r.temperature } : {}),
    ...(r.maxTokens !== undefined ? { maxTokens: r.maxTokens } : {}),
    ...(r.seed !== undefined ? { seed: r.seed } : {}),
    ...(r.timeoutMs !== undefined ? { timeoutMs: r.timeoutMs } : {}),
  };
}
