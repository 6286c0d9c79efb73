import { mkdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { CitegeistError } from '../../core/index.js';
import {
  DEFAULT_PACK_LIMITS,
  describeSubset,
  makePack,
  openPack,
  renderDrift,
  renderPackContents,
  replayPack,
  writeDrift,
} from '../../pack/index.js';
import { VERSION } from '../../version.js';
import type { RegisterCommand } from '../context.js';
import { DEFAULT_CACHE_FILE } from '../llm-options.js';
import { countOption } from '../setup/option-parsers.js';
import { packStepRunner, printVerdicts } from '../setup/pack-step-runner.js';

type PackOptions = {
  include?: string[];
  from?: string;
  out: string;
  cache?: string;
  excludeInputs?: boolean;
  withCorpus?: boolean;
};
type ReplayFlags = { dir: string; inputs?: string; maxBytes: number; rejudge?: string; regenerate?: string };

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
    .option(
      '--with-corpus',
      'pack papers folders whole (default: only the papers the grading read, recorded as a subset of the folder)',
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
        withCorpus: o.withCorpus === true,
        version: VERSION,
        now: new Date(),
        run: packStepRunner(ctx),
        ...(ctx.io.env.CITEGEIST_HUMAN_LABELS ? { humanLabels: ctx.io.env.CITEGEIST_HUMAN_LABELS } : {}),
      });
      const m = made.manifest;
      ctx.io.out(
        `wrote ${relative(cwd, out) || out}: ${m.files.length} files (${m.files.filter((f) => f.role === 'output').length} outputs), ${m.steps.length} replay steps, ${m.replies.count} model replies, ${made.bytes} bytes\n`,
      );
      for (const s of m.corpus_subsets) ctx.io.out(`${describeSubset(s)}\n`);
      const bad = printVerdicts(ctx, made.verdicts);
      for (const note of m.notes) ctx.io.err(`note: ${note}\n`);
      if (bad > 0) ctx.setExitCode(1);
    });

  pack
    .command('inspect')
    .description('list what a pack holds: files, sizes, hashes, replay steps, replies')
    .argument('<pack>', 'a .cgpack file')
    .action((file: string) => {
      const m = openPack(resolve(ctx.io.cwd, file)).manifest;
      ctx.io.out(ctx.globals().json ? `${JSON.stringify(m, null, 2)}\n` : renderPackContents(m));
    });

  pack
    .command('verify')
    .description('check every hash of a pack (entries, replies) without replaying it')
    .argument('<pack>', 'a .cgpack file')
    .action((file: string) => {
      const p = openPack(resolve(ctx.io.cwd, file));
      ctx.io.out(`${file}: ${p.entries.length} entries, every hash matches pack.json\n`);
      // openPack checked each subset's files against its recorded hash; what it stands for is said.
      for (const s of p.manifest.corpus_subsets) ctx.io.out(`${describeSubset(s)}\n`);
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
    .option(
      '--rejudge <spec>',
      'call this judge model live instead of the packed replies and report the drift (paired comparison, judge card)',
    )
    .option(
      '--regenerate <spec>',
      'write the runs `citegeist answer` made again with this model before grading them, and report the drift',
    )
    .action(async (file: string, o: ReplayFlags) => {
      const pack = openPack(resolve(ctx.io.cwd, file), { ...DEFAULT_PACK_LIMITS, maxBytes: o.maxBytes });
      const dir = resolve(ctx.io.cwd, o.dir);
      mkdirSync(dir, { recursive: true });
      const { verdicts, drift } = await replayPack({
        pack,
        dir,
        run: packStepRunner(ctx, { papersCache: false }),
        version: VERSION,
        ...(o.inputs ? { inputsDir: resolve(ctx.io.cwd, o.inputs) } : {}),
        ...(o.rejudge ? { rejudge: o.rejudge } : {}),
        ...(o.regenerate ? { regenerate: o.regenerate } : {}),
      });
      const where = relative(ctx.io.cwd, dir) || '.';
      ctx.io.out(`replayed ${file} in ${join(where, 'study')}:\n`);
      for (const s of pack.manifest.corpus_subsets) ctx.io.out(`${describeSubset(s)}\n`);
      const bad = printVerdicts(ctx, verdicts);
      if (!o.rejudge && !o.regenerate) {
        if (bad > 0) ctx.setExitCode(1);
        return;
      }
      // The renderer says when no step could be changed (nothing judged, no run `answer` wrote).
      ctx.io.out(`\n${renderDrift(drift)}\n`);
      const written = writeDrift(dir, drift);
      ctx.io.out(`wrote ${written.map((w) => join(where, w)).join(', ')}\n`);
      if (drift.length === 0 || verdicts.some((v) => v.verdict === 'missing')) ctx.setExitCode(1);
    });
};
