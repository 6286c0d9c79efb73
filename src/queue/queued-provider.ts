import {
  type AdaptiveLimiter,
  type Budget,
  type CacheMode,
  type CallEvent,
  callEventOf,
  costOf,
  type GenerateRequest,
  type GenerateResult,
  generateValidated,
  jsonSchemaOf,
  type LlmProvider,
  modelFamily,
  modelId,
  type ObjectRequest,
  type ObjectResult,
  type Price,
  type PriceTable,
  parseModelString,
  priceFor,
  projectCost,
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
 * as a job holding the messages and settings, never a key. The budget is reserved before a job is
 * enqueued and settled with the cost of the usage the worker reports, priced with this machine's
 * table, so spend is capped and counted as locally.
 */
export class QueuedProvider implements LlmProvider {
  readonly id: string;
  readonly family: string;
  readonly contextWindow: number | null = null;
  readonly structuredOutput = 'chosen by each worker';
  private readonly price: Price | null;
  private readonly schemas = new WeakMap<object, Record<string, unknown>>();

  constructor(
    spec: string,
    private readonly options: QueuedProviderOptions,
  ) {
    const parsed = parseModelString(spec);
    this.id = modelId(parsed);
    this.family = modelFamily(parsed.model);
    this.price = priceFor(this.id, parsed.model, options.prices);
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

  private async call(request: GenerateRequest, schema: WireSchema | undefined): Promise<GenerateResult> {
    const started = performance.now();
    request.signal?.throwIfAborted();
    const budget = this.options.budget ?? null;
    const hold = budget?.reserve(projectCost(request, this.price, this.options.expectedOutputTokens));
    if (hold === null) {
      const reason = `budget exceeded: $${budget?.spentUsd.toFixed(4)} spent of $${budget?.limitUsd}; this call would pass it`;
      return this.report({
        ok: false,
        reason,
        usage: null,
        costUsd: null,
        retries: 0,
        cached: false,
        latencyMs: performance.now() - started,
      });
    }
    let reply: CallReply;
    const release = await this.options.limiter.acquire(request.signal);
    try {
      reply = await this.options.coordinator.submit(
        {
          model: this.id,
          run: this.options.run(),
          request: wireRequest(request),
          ...(schema ? { schema } : {}),
          cacheMode: this.options.cacheMode ?? 'normal',
        },
        request.signal,
      );
    } catch (error) {
      if (hold) budget?.settle(hold, null);
      throw error;
    } finally {
      release();
    }
    const costUsd = !reply.ok
      ? null
      : reply.cached
        ? this.price && reply.usage
          ? 0
          : null
        : costOf(reply.usage, this.price);
    // As locally: a priced reply without usage is charged its projection, so the cap still holds.
    if (hold)
      budget?.settle(hold, costUsd ?? (reply.ok && !reply.cached && this.price ? hold.projectedUsd : null));
    const meta = { latencyMs: reply.latencyMs, retries: reply.retries, cached: reply.cached };
    return this.report(
      reply.ok
        ? { ok: true, text: reply.text, usage: reply.usage, costUsd, ...meta }
        : {
            ok: false,
            reason: reply.reason,
            ...(reply.raw !== undefined ? { raw: reply.raw } : {}),
            usage: null,
            costUsd: null,
            ...meta,
          },
    );
  }

  private report(result: GenerateResult): GenerateResult {
    this.options.onCall?.(callEventOf(this.id, result));
    return result;
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
