import { z } from 'zod';
import { extractJson } from './json-extract.js';
import type {
  CallMeta,
  ChatMessage,
  GenerateRequest,
  GenerateResult,
  ObjectRequest,
  ObjectResult,
} from './provider.js';

/** Validates a model reply against a schema after lenient JSON extraction. */
export function validateReply<T>(
  text: string,
  schema: z.ZodType<T>,
): { ok: true; value: T } | { ok: false; reason: string } {
  const found = extractJson(text);
  if (!found) return { ok: false, reason: 'the reply contains no parseable JSON' };
  const result = schema.safeParse(found.value);
  if (result.success) return { ok: true, value: result.data };
  const issues = result.error.issues
    .slice(0, 6)
    .map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`)
    .join('; ');
  return { ok: false, reason: `the JSON does not match the schema: ${issues}` };
}

/** The JSON Schema of a zod schema, for prompts and for APIs that take a response schema. */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  return z.toJSONSchema(schema, { unrepresentable: 'any' }) as Record<string, unknown>;
}

/** An instruction appended to the last user message for servers without native structured output. */
export function jsonInstruction(schema: z.ZodType): string {
  return `\n\nReply with one JSON value only, no prose, that validates against this JSON Schema:\n${JSON.stringify(jsonSchemaOf(schema))}`;
}

/**
 * The validate-and-repair loop shared by every provider: call, validate, and on failure send the
 * reply back with the validation error (at most `maxRepairs` times). Never throws on model text;
 * meta (latency, usage, cost, retries) is summed over all turns.
 */
export async function generateValidated<T>(
  request: ObjectRequest<T>,
  call: (req: GenerateRequest) => Promise<GenerateResult>,
): Promise<ObjectResult<T>> {
  const maxRepairs = request.maxRepairs ?? 2;
  let messages: ChatMessage[] = request.messages;
  const total: CallMeta = { latencyMs: 0, usage: null, costUsd: null, retries: 0, cached: true };
  let lastRaw = '';
  let lastReason = 'no reply';
  for (let turn = 0; turn <= maxRepairs; turn++) {
    const { schema: _s, schemaName: _n, maxRepairs: _m, ...base } = request;
    const reply = await call({ ...base, messages });
    addMeta(total, reply, turn > 0);
    if (!reply.ok) return { ok: false, reason: reply.reason, raw: reply.raw ?? lastRaw, ...total };
    lastRaw = reply.text;
    const checked = validateReply(reply.text, request.schema);
    if (checked.ok) return { ok: true, value: checked.value, raw: reply.text, ...total };
    lastReason = checked.reason;
    messages = [
      ...messages,
      { role: 'assistant', content: reply.text },
      {
        role: 'user',
        content: `Your reply was not valid: ${checked.reason}. Reply again with corrected JSON only.`,
      },
    ];
  }
  return {
    ok: false,
    reason: `invalid structured output after ${maxRepairs} repair(s): ${lastReason}`,
    raw: lastRaw,
    ...total,
  };
}

function addMeta(total: CallMeta, reply: CallMeta, isRepair: boolean): void {
  total.latencyMs += reply.latencyMs;
  total.retries += reply.retries + (isRepair ? 1 : 0);
  total.cached &&= reply.cached;
  if (reply.usage) {
    total.usage = {
      inputTokens: (total.usage?.inputTokens ?? 0) + reply.usage.inputTokens,
      outputTokens: (total.usage?.outputTokens ?? 0) + reply.usage.outputTokens,
    };
  }
  if (reply.costUsd !== null) total.costUsd = (total.costUsd ?? 0) + reply.costUsd;
}
