import { type CallPolicyOptions, CallRunner } from './call-policy.js';
import { modelFamily } from './family.js';
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
 * (cache, budget, limiter, timeout, retries). Structured calls go through the shared
 * validate-and-repair loop, with the schema also handed to the API when it can constrain output.
 */
export class TransportProvider implements LlmProvider {
  readonly family: string;
  readonly contextWindow: number | null;
  readonly runner: CallRunner;

  constructor(
    readonly id: string,
    readonly transport: Transport,
    options: TransportProviderOptions = {},
  ) {
    this.family = options.family ?? modelFamily(transport.model);
    this.contextWindow = options.contextWindow ?? null;
    this.runner = new CallRunner(id, transport, options);
  }

  /** How structured output is obtained ("json_schema", "tool call", "responseSchema", …). */
  get structuredOutput(): string {
    return this.transport.structuredOutput();
  }

  generate(request: GenerateRequest): Promise<GenerateResult> {
    return this.runner.call(request, undefined);
  }

  generateObject<T>(request: ObjectRequest<T>): Promise<ObjectResult<T>> {
    const schema: WireSchema = {
      name: wireName(request.schemaName ?? 'result'),
      jsonSchema: jsonSchemaOf(request.schema),
    };
    return generateValidated(request, (req) => this.runner.call(req, schema));
  }
}

/** A name APIs accept for tools and schemas: [a-zA-Z0-9_-], 1–64 characters. */
export function wireName(name: string): string {
  const clean = name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
  return clean === '' ? 'result' : clean;
}
