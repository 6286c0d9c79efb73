/**
 * How `pack` and `replay` run a pack's steps in the unpacked study: a command line in-process (its
 * messages kept for the verdicts), or a report rebuilt from its recipe; the clock fixed to the time
 * the original records, model calls served from the given reply cache (cache-only unless the step
 * is re-judged live).
 */
import { relative, resolve } from 'node:path';
import type { OutputVerdict, StepRunner } from '../../pack/index.js';
import type { ReportRecipe } from '../../report/index.js';
import { optionsFromRecipe, writeReport } from '../../report/index.js';
import type { CliContext } from '../context.js';

/**
 * `papersCache: false` (replay): grading steps parse the packed papers in memory and write no
 * papers cache (CITEGEIST_PAPERS_CACHE=off); the check replay of `pack` keeps it, to read the
 * papers the workspace already parsed.
 */
export function packStepRunner(ctx: CliContext, use: { papersCache?: boolean } = {}): StepRunner {
  const env = use.papersCache === false ? { ...ctx.io.env, CITEGEIST_PAPERS_CACHE: 'off' } : ctx.io.env;
  return async (step, root, cache) => {
    const previous = { clock: process.env.CITEGEIST_CLOCK, used: process.env.CITEGEIST_CACHE_USED };
    if (step.clock) process.env.CITEGEIST_CLOCK = step.clock;
    else delete process.env.CITEGEIST_CLOCK;
    if (cache?.usedLog) process.env.CITEGEIST_CACHE_USED = cache.usedLog;
    let messages = '';
    try {
      if (step.kind === 'report') {
        const cwd = resolve(root, step.cwd);
        const out = relative(cwd, resolve(root, step.outputs[0]!));
        const recipe = { options: step.options ?? {}, inputs: [] } as unknown as ReportRecipe;
        await writeReport(optionsFromRecipe(recipe, out), cwd);
        return { code: 0, messages };
      }
      const cacheArgs = cache ? ['--cache', cache.file, ...(cache.live ? [] : ['--cache-only'])] : [];
      const keep = (t: string) => {
        messages += t;
      };
      const io = { ...ctx.io, env, cwd: resolve(root, step.cwd), interactive: false, out: keep, err: keep };
      const code = await ctx.run([...step.argv!, ...cacheArgs], io);
      return { code, messages };
    } catch (error) {
      return { code: 1, messages: `${messages}${(error as Error).message}` };
    } finally {
      if (previous.clock === undefined) delete process.env.CITEGEIST_CLOCK;
      else process.env.CITEGEIST_CLOCK = previous.clock;
      if (previous.used === undefined) delete process.env.CITEGEIST_CACHE_USED;
      else process.env.CITEGEIST_CACHE_USED = previous.used;
    }
  };
}

/** Prints one line per output and the tally; returns how many are not identical. */
export function printVerdicts(ctx: CliContext, verdicts: readonly OutputVerdict[]): number {
  for (const v of verdicts) {
    ctx.io.out(`  ${v.verdict.padEnd(12)} ${v.path}${v.detail ? `\n               ${v.detail}` : ''}\n`);
  }
  const bad = verdicts.filter((v) => v.verdict !== 'identical').length;
  ctx.io.out(`${verdicts.length - bad} of ${verdicts.length} outputs identical\n`);
  return bad;
}
