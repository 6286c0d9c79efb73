import { mkdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { CitegeistError } from '../../core/index.js';
import { ResponseCache } from '../../llm/index.js';
import {
  DEFAULT_PACK_LIMITS,
  makePack,
  type OutputVerdict,
  openPack,
  type PackedReply,
  replayPack,
  type StepRunner,
} from '../../pack/index.js';
import { optionsFromRecipe, type ReportRecipe, writeReport } from '../../report/index.js';
import { VERSION } from '../../version.js';
import type { CliContext, RegisterCommand } from '../context.js';
import { DEFAULT_CACHE_FILE } from '../llm-options.js';
import { countOption } from '../setup/option-parsers.js';

/**
 * Runs one step of a pack in the unpacked study: a command line in-process (its output kept for the
 * verdicts), or a report rebuilt from its recipe; the clock fixed to the time the original records.
 */
function stepRunner(ctx: CliContext): StepRunner {
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
      const cacheArgs = cache ? ['--cache', cache.file, '--cache-only'] : [];
      const io = {
        ...ctx.io,
        cwd: resolve(root, step.cwd),
        interactive: false,
        out: (t: string) => {
          messages += t;
        },
        err: (t: string) => {
          messages += t;
        },
      };
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

function writeReplies(file: string, replies: readonly PackedReply[]): void {
  mkdirSync(dirname(file), { recursive: true });
  const cache = new ResponseCache(file);
  for (const r of replies) {
    const usage =
      r.input_tokens === null || r.output_tokens === null
        ? null
        : { inputTokens: r.input_tokens, outputTokens: r.output_tokens };
    cache.set(r.key, r.model, { text: r.text, usage });
  }
  cache.close();
}

function printVerdicts(ctx: CliContext, verdicts: readonly OutputVerdict[]): number {
  for (const v of verdicts) {
    ctx.io.out(`  ${v.verdict.padEnd(12)} ${v.path}${v.detail ? `\n               ${v.detail}` : ''}\n`);
  }
  const bad = verdicts.filter((v) => v.verdict !== 'identical').length;
  ctx.io.out(`${verdicts.length - bad} of ${verdicts.length} outputs identical\n`);
  return bad;
}

interface PackOptions {
  include?: string[];
  from?: string;
  out: string;
  cache?: string;
  excludeInputs?: boolean;
}

export const registerPack: RegisterCommand = (program, ctx) => {
  const pack = program
    .command('pack')
    .description(
      'write a study pack: the outputs named, every input they were made from, the model replies they used, and how to re-derive each (docs/packs.md)',
    )
    .option(
      '--include <files...>',
      'outputs to pack (grades, VETSCORE results, ARGUE judgments and scores, reports…)',
    )
    .option('--from <report>', 'pack everything an HTML report was built from, and the report')
    .option('--out <file>', 'pack to write', 'study.cgpack')
    .option(
      '--cache <file>',
      `reply cache the judged outputs were made with (default: ${DEFAULT_CACHE_FILE})`,
    )
    .option(
      '--exclude-inputs',
      'reference inputs by hash and size instead of packing them (outputs are always packed)',
    )
    .action(async (o: PackOptions) => {
      const outputs = [...(o.include ?? []), ...(o.from ? [o.from] : [])];
      if (outputs.length === 0) {
        throw new CitegeistError(
          'OPTION_REQUIRED',
          'Nothing to pack: give --include FILES or --from REPORT.',
          'E.g. `citegeist pack --from report.html --out study.cgpack`.',
        );
      }
      const cwd = ctx.io.cwd;
      const out = resolve(cwd, o.out);
      const made = await makePack({
        outputs,
        cwd,
        out,
        cache: resolve(cwd, o.cache ?? DEFAULT_CACHE_FILE),
        excludeInputs: o.excludeInputs === true,
        version: VERSION,
        now: new Date(),
        run: stepRunner(ctx),
        readReplies: ResponseCache.storedReplies,
      });
      const m = made.manifest;
      ctx.io.out(
        `wrote ${relative(cwd, out) || out}: ${m.files.length} files (${m.files.filter((f) => f.role === 'output').length} outputs), ${m.steps.length} replay steps, ${m.replies.count} model replies, ${made.bytes} bytes\n`,
      );
      const bad = printVerdicts(ctx, made.verdicts);
      for (const note of m.notes) ctx.io.err(`note: ${note}\n`);
      if (bad > 0) ctx.setExitCode(1);
    });

  pack
    .command('inspect')
    .description('list what a pack holds: files, sizes, hashes, replay steps, replies')
    .argument('<pack>', 'a .cgpack file')
    .action((file: string) => {
      const p = openPack(resolve(ctx.io.cwd, file));
      const m = p.manifest;
      if (ctx.globals().json) {
        ctx.io.out(`${JSON.stringify(m, null, 2)}\n`);
        return;
      }
      ctx.io.out(
        `citegeist study pack, format ${m.citegeist_pack}, made by citegeist ${m.tool.version} on ${m.created_at}\n\nfiles:\n`,
      );
      for (const f of m.files) {
        ctx.io.out(
          `  ${f.role.padEnd(6)} ${String(f.size).padStart(10)}  ${f.sha256.slice(0, 12)}  ${f.path}${f.packed ? '' : '  (referenced only)'}\n`,
        );
      }
      ctx.io.out('\nreplay steps:\n');
      for (const s of m.steps) {
        const how =
          s.kind === 'report'
            ? 'citegeist report (from the report recipe)'
            : `citegeist ${s.argv!.join(' ')}`;
        ctx.io.out(
          `  ${s.not_replayable ? 'NOT replayable' : 'replayable    '}  ${s.outputs.join(', ')}\n      ${how}\n`,
        );
      }
      ctx.io.out(`\nmodel replies: ${m.replies.count}\n`);
      for (const n of m.notes) ctx.io.out(`note: ${n}\n`);
    });

  pack
    .command('verify')
    .description('check every hash of a pack (entries, replies) without replaying it')
    .argument('<pack>', 'a .cgpack file')
    .action((file: string) => {
      const p = openPack(resolve(ctx.io.cwd, file));
      ctx.io.out(`${file}: ${p.entries.length} entries, every hash matches pack.json\n`);
    });

  program
    .command('replay')
    .description(
      're-derive every output of a study pack from its inputs and replies (no network, no keys) and compare byte for byte',
    )
    .argument('<pack>', 'a .cgpack file')
    .option('--dir <folder>', 'empty folder to replay in', 'replayed')
    .option('--inputs <dir>', 'folder with the inputs a pack references by hash only (same relative paths)')
    .option(
      '--max-bytes <n>',
      'refuse a pack that inflates past this many bytes',
      countOption('--max-bytes'),
      DEFAULT_PACK_LIMITS.maxBytes,
    )
    .action(async (file: string, o: { dir: string; inputs?: string; maxBytes: number }) => {
      const pack = openPack(resolve(ctx.io.cwd, file), { ...DEFAULT_PACK_LIMITS, maxBytes: o.maxBytes });
      const dir = resolve(ctx.io.cwd, o.dir);
      mkdirSync(dir, { recursive: true });
      const verdicts = await replayPack({
        pack,
        dir,
        run: stepRunner(ctx),
        writeCache: writeReplies,
        ...(o.inputs ? { inputsDir: resolve(ctx.io.cwd, o.inputs) } : {}),
      });
      ctx.io.out(`replayed ${file} in ${join(relative(ctx.io.cwd, dir) || '.', 'study')}:\n`);
      if (printVerdicts(ctx, verdicts) > 0) ctx.setExitCode(1);
    });
};
