import { z } from 'zod';
import { canonicalJson, sha256Hex, unitKey } from '../core/index.js';

/**
 * One job = one model call, and everything a worker needs to make it: the model id, the messages
 * (question and context text already in them), the call settings, the JSON Schema of a structured
 * call and the cache mode. Never an API key: keys stay in the workers' environment. The format
 * number is part of the queue names, so a worker never takes a job of a format it does not know.
 */
export const JOB_FORMAT = 1;

/** Key prefix of every queue and record citegeist keeps in Redis. */
export const KEY_PREFIX = 'citegeist';

const Message = z.object({ role: z.enum(['system', 'user', 'assistant']), content: z.string() });
const Usage = z.object({ inputTokens: z.number(), outputTokens: z.number() });

/** The run a call belongs to: its id names the jobs, its label and kind show in `queue status`. */
export const QueueRunSchema = z.object({ id: z.string().min(1), label: z.string(), kind: z.string() });
export type QueueRun = z.infer<typeof QueueRunSchema>;

export const CallJobSchema = z.object({
  format: z.literal(JOB_FORMAT),
  model: z.string().min(1),
  run: QueueRunSchema,
  /** The coordinator process that enqueued it (tells a job left by an earlier attempt from its own). */
  session: z.string(),
  request: z.object({
    messages: z.array(Message).min(1),
    temperature: z.number().optional(),
    maxTokens: z.number().int().positive().optional(),
    seed: z.number().int().optional(),
    timeoutMs: z.number().positive().optional(),
  }),
  schema: z.object({ name: z.string(), jsonSchema: z.record(z.string(), z.unknown()) }).optional(),
  cacheMode: z.enum(['normal', 'no-cache', 'cache-only']),
});
export type CallJob = z.infer<typeof CallJobSchema>;

/** What a worker returns: the reply or a definite failure, with the call's own figures. */
export const CallReplySchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    text: z.string(),
    usage: Usage.nullable(),
    latencyMs: z.number(),
    retries: z.number(),
    cached: z.boolean(),
    worker: z.string().optional(),
  }),
  z.object({
    ok: z.literal(false),
    reason: z.string(),
    raw: z.string().optional(),
    usage: Usage.nullable(),
    latencyMs: z.number(),
    retries: z.number(),
    cached: z.boolean(),
    worker: z.string().optional(),
  }),
]);
export type CallReply = z.infer<typeof CallReplySchema>;

/** The BullMQ queue of one model (names may not hold `:`; the id is hashed, the registry maps back). */
export function queueNameFor(modelId: string): string {
  return `calls-v${JOB_FORMAT}-${sha256Hex(modelId).slice(0, 16)}`;
}

/**
 * The job id: the run's id and the unit, here the request itself (`unitKey(run, call-<hash>)`).
 * The same call of the same run is the same job on every attempt of the run, so a restarted
 * coordinator finds the job it had enqueued (or its result) instead of enqueueing it again; a call
 * whose input changed (an answer retried before it is graded again) is a new job.
 */
export function jobIdFor(job: Pick<CallJob, 'model' | 'run' | 'request' | 'schema' | 'cacheMode'>): string {
  const digest = sha256Hex(
    canonicalJson([job.model, job.request, job.schema?.jsonSchema ?? null, job.cacheMode]),
  );
  return unitKey({ run_id: job.run.id }, `call-${digest.slice(0, 32)}`);
}

/** Redis keys of the registry beside the queues (plain hashes, readable with redis-cli). */
export const registryKeys = {
  /** queue name → model id, for workers that serve whatever is enqueued and for `queue status`. */
  models: `${KEY_PREFIX}:models`,
  /** run id → last heartbeat (ms). */
  runs: `${KEY_PREFIX}:runs`,
  run: (runId: string) => `${KEY_PREFIX}:run:${runId}`,
  cache: (key: string) => `${KEY_PREFIX}:cache:${key}`,
};
