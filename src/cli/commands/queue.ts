import { parseRedisUrl, type QueueStatus, readQueueStatus } from '../../queue/index.js';
import { renderTable } from '../../text/index.js';
import type { RegisterCommand } from '../context.js';
import { withEnvPassword } from '../llm-options.js';
import { parseIntOption } from '../setup/option-parsers.js';

/** `citegeist queue status --queue redis://…`: each model queue and each recent run on it. */
export const registerQueue: RegisterCommand = (program, ctx) => {
  program
    .command('queue')
    .description('inspect the queue that --queue runs and `citegeist worker` share')
    .command('status')
    .description(
      'waiting, active, completed and failed calls per model queue and per run, workers, throughput',
    )
    .requiredOption('--queue <url>', 'the Redis: redis://host:port[/db]')
    .option('--runs <n>', 'most recent runs to show', parseIntOption('--runs', 1), 20)
    .action(async (flags: { queue: string; runs: number }) => {
      const target = withEnvPassword(parseRedisUrl(flags.queue, '--queue'), ctx.io.env);
      const status = await readQueueStatus(target, { runs: flags.runs });
      ctx.io.out(ctx.globals().json ? `${JSON.stringify(status, null, 2)}\n` : renderStatus(status));
    });
};

export function renderStatus(s: QueueStatus): string {
  const right = (header: string) => ({ header, align: 'right' as const });
  const models = s.models.length
    ? renderTable(
        [
          { header: 'model' },
          right('waiting'),
          right('active'),
          right('delayed'),
          right('completed'),
          right('failed'),
          right('workers'),
          right('limit'),
        ],
        s.models.map((m) => [
          m.model,
          String(m.waiting),
          String(m.active),
          String(m.delayed),
          String(m.completed),
          String(m.failed),
          String(m.workers.length),
          m.rateLimit
            ? `${m.rateLimit.max}/${m.rateLimit.durationMs === 60_000 ? 'min' : `${m.rateLimit.durationMs} ms`}`
            : '-',
        ]),
      )
    : 'no model queues yet (no coordinator has enqueued, no worker has named a model)';
  const runs = s.runs.length
    ? renderTable(
        [
          { header: 'run' },
          { header: 'kind' },
          { header: 'state' },
          right('waiting'),
          right('active'),
          right('completed'),
          right('failed'),
          right('cached'),
          right('per min'),
          { header: 'coordinator' },
        ],
        s.runs.map((r) => [
          r.label,
          r.kind,
          r.state,
          String(r.waiting),
          String(r.active),
          String(r.completed),
          String(r.failed),
          String(r.cached),
          String(r.per_minute),
          r.coordinator,
        ]),
      )
    : 'no runs in the last 7 days';
  const workers = [...new Set(s.models.flatMap((m) => m.workers))];
  return `queue ${s.redis} (counts are model calls; completed jobs are kept 24 h, failed ones 7 days)\n\n${models}\n\n${runs}\n\nworkers connected: ${workers.length ? workers.join(', ') : 'none'}\n`;
}
