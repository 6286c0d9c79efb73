import type { CertifyRun } from '../../grade/index.js';
import type { CliContext } from '../context.js';
import { createProgress } from '../progress.js';
import type { FaithfulnessRuntime } from './faithfulness-runtime.js';

/**
 * The hooks of a judged pass of `meta-eval judge`: the pass is named on the queue (so it resumes
 * like every judged run), a progress bar follows its items and calls, and its counts are printed;
 * a pass with judge failures sets the exit code. `stop` ends a bar a failed pass left running.
 */
export function judgePassProgress(ctx: CliContext, rt: FaithfulnessRuntime | null) {
  let bar: ReturnType<typeof createProgress> | null = null;
  const hooks: Pick<CertifyRun, 'beforePass' | 'afterPass'> = {
    beforePass: async ({ manifest, items }) => {
      await rt?.useRun?.({ run_id: manifest.run_id, label: manifest.label, kind: 'judgments' });
      const progress = createProgress({ io: ctx.io, label: 'judge', total: items, unit: 'items' });
      bar = progress;
      rt?.onCall?.((call) => progress.call(call));
      return (item, v) =>
        progress.tick({
          ok: v.status === 'scored',
          note: item.id,
          ...(v.status === 'failed' ? { problem: `${item.id}: ${v.reason}` } : {}),
        });
    },
    afterPass: ({ path }, r) => {
      stop();
      ctx.io.err(`judged ${r.judged} items (${r.resumed} already in ${path}), ${r.failed} judge failures\n`);
      if (r.failed > 0) ctx.setExitCode(1);
    },
  };
  const stop = () => {
    bar?.stop();
    bar = null;
  };
  return { hooks, stop };
}
