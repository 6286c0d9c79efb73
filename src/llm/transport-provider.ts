import { type CallPolicyOptions, localCall } from './call-policy.js';
import { modelFamily } from './family.js';
import type { AdaptiveLimiter } from './limiter.js';
import type { ModelCall } from './policies/call-stack.js';
import type {
  GenerateRequest,
  GenerateResult,
  LlmProvider,
  ObjectRequest,
  ObjectResult,
} from './provider.js';
import { generateValidated, jsonSchemaOf } from './structured.js';
import type { Transport, WireSchema } from './transport.js';

export interface TransportProviderOptions extends CallPolicyOptions {
  family?: string;
  contextWindow?: number | null;
}

/**
 * An LlmProvider made of a Transport (one API's wire format) and the shared call policies
 * (cache, budget, limiter, timeout, retries; stacked by `localCall`). Structured calls go through the shared
 * validate-and-repair loop, with the schema also handed to the API when it can constrain output.
 */
export class TransportProvider implements LlmProvider {
  readonly family: string;
  readonly contextWindow: number | null;
  /** One model call under this provider's policies (the queue worker calls it directly). */
  readonly call: ModelCall;
  readonly limiter: AdaptiveLimiter;
  /** JSON Schemas by zod schema: converting on every call costs more than the cache lookup. */
  private readonly schemas = new WeakMap<object, Record<string, unknown>>();

  constructor(
    readonly id: string,
    readonly transport: Transport,
    options: TransportProviderOptions = {},
  ) {
    this.family = options.family ?? modelFamily(transport.model);
    this.contextWindow = options.contextWindow ?? null;
    ({ call: this.call, limiter: this.limiter } = localCall(id, transport, options));
  }

  /** How structured output is obtained ("json_schema", "tool call", "responseSchema", …). */
  get structuredOutput(): string {
    return this.transport.structuredOutput();
  }

  generate(request: GenerateRequest): Promise<GenerateResult> {
    return this.call(request, undefined);
  }

  generateObject<T>(request: ObjectRequest<T>): Promise<ObjectResult<T>> {
    const name = wireName(request.schemaName ?? 'result');
    let jsonSchema = this.schemas.get(request.schema);
    if (!jsonSchema) {
      jsonSchema = jsonSchemaOf(request.schema);
      this.schemas.set(request.schema, jsonSchema);
    }
    const schema: WireSchema = { name, jsonSchema };
    return generateValidated(request, (req) => this.call(req, schema));
  }
}

/** A name APIs accept for tools and schemas: [a-zA-Z0-9_-], 1–64 characters. */
export function wireName(name: string): string {
  const clean = name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
  return clean === '' ? 'result' : clean;
}
