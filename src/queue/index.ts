export {
  type CallJob,
  CallJobSchema,
  type CallReply,
  CallReplySchema,
  JOB_FORMAT,
  jobIdFor,
  KEY_PREFIX,
  type QueueRun,
  queueNameFor,
  registryKeys,
} from './call-job.js';
export { type CoordinatorOptions, JOB_ATTEMPTS, QueueCoordinator } from './coordinator.js';
export { type ModelQueueStatus, type QueueStatus, type RunStatus, readQueueStatus } from './queue-status.js';
export { QueueWorker, type QueueWorkerOptions, type WorkerTally } from './queue-worker.js';
export { QueuedProvider, type QueuedProviderOptions } from './queued-provider.js';
export { openRedis } from './redis-client.js';
export { RedisReplyCache } from './redis-reply-cache.js';
export { isRedisUrl, parseRedisUrl, type RedisTarget } from './redis-target.js';
export { workerProviders } from './worker-providers.js';
