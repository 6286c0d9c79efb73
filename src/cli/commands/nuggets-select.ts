import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { CitegeistError } from '../../core/index.js';
import {
  bankQueryId,
  isQuestion,
  type LoadedBank,
  nuggetEntries,
  readNuggetFile,
  writeNuggetBankFile,
} from '../../formats/index.js';
import {
  loadSelector,
  QUALITY_FEATURES,
  qualityFeatures,
  ResultFolder,
  SELECT_METHODS,
  type SelectMethod,
  selectNuggets,
  type TrainingGroup,
  trainSelector,
} from '../../generate/index.js';
import { writeFileAtomic } from '../../io/index.js';
import { VERSION } from '../../version.js';
import type { RegisterCommand } from '../context.js';
import { nuggetsCommand, refuseOutputIsInput } from './nuggets-inputs.js';
import { choiceOption, countOption, numberOption } from './option-parsers.js';
import { hashInputs } from './reports-inputs.js';

const BANK_FILE = /\.json(\.gz)?$/i;

/** The v3 bank files directly in a folder (or the one file), each with its file name. */
export function readBankFiles(path: string): { file: string; loaded: LoadedBank }[] {
  if (!existsSync(path))
    throw new CitegeistError(
      'FILE_NOT_FOUND',
      `The nugget banks path ${path} does not exist.`,
      'Check --bank.',
    );
  const files = statSync(path).isDirectory()
    ? readdirSync(path)
        .filter(
          (f) =>
            BANK_FILE.test(f) &&
            !f.startsWith('.') &&
            !f.endsWith('.meta.json') &&
            statSync(join(path, f)).isFile(),
        )
        .sort()
        .map((f) => join(path, f))
    : [path];
  const out: { file: string; loaded: LoadedBank }[] = [];
  for (const file of files) {
    for (const loaded of readNuggetFile(file)) {
      if (loaded.format !== 'v3') {
        throw new CitegeistError(
          'UNKNOWN_LAYOUT',
          `${loaded.where} is a ${loaded.format} file; this command reads nugget bank v3 files.`,
          'Convert it first: `citegeist nuggets convert --in <file> --to v3 --out <dir>`.',
        );
      }
      out.push({ file, loaded });
    }
  }
  if (out.length === 0)
    throw new CitegeistError(
      'NO_ROWS',
      `${path} holds no nugget bank files (*.json, *.json.gz).`,
      'Point --bank at a folder of nugget bank v3 files.',
    );
  return out;
}

interface SelectFlags {
  bank: string;
  method: SelectMethod;
  topK: number;
  maxMostCommon: number;
  seed: number;
  selector?: string;
  keepSubNuggets: boolean;
  out: string;
}

export const registerNuggetsSelect: RegisterCommand = (program, ctx) => {
  nuggetsCommand(program)
    .command('select')
    .description(
      'keep the top-k nuggets of each bank: most-common, criteria (trained selector), hybrid, or a seeded sample, as DoGMaTiQ selects them',
    )
    .requiredOption('--bank <path>', 'a folder of nugget bank v3 files, or one file')
    .requiredOption('--out <dir>', 'folder for the selected banks (same file names)')
    .option(
      '--method <method>',
      SELECT_METHODS.join(' | '),
      choiceOption('--method', SELECT_METHODS),
      'most-common',
    )
    .option('--top-k <n>', 'nuggets to keep per bank', countOption('--top-k'), 20)
    .option(
      '--max-most-common <share>',
      'hybrid: largest share of slots filled by most-common',
      numberOption('--max-most-common', { min: 0, max: 1 }),
      0.75,
    )
    .option('--seed <n>', "sample: seed of Python's random", numberOption('--seed', { integer: true }), 1234)
    .option(
      '--selector <file>',
      'criteria/hybrid (required): a selector written by `nuggets train-selector` (none ships with citegeist)',
    )
    .option('--keep-sub-nuggets', 'keep sub-nuggets (the released step deletes them)', false)
    .action((flags: SelectFlags) => {
      const { io } = ctx;
      const banks = readBankFiles(resolve(io.cwd, flags.bank));
      const needsSelector = flags.method === 'criteria' || flags.method === 'hybrid';
      if (needsSelector && !flags.selector) {
        throw new CitegeistError(
          'OPTION_REQUIRED',
          `--method ${flags.method} ranks nuggets with a trained selector, and no --selector was given (none ships with citegeist).`,
          'Train one with `citegeist nuggets train-selector --positive <human banks> --negative <generated banks> --out selector.json` (docs/nuggets.md) and pass --selector selector.json.',
        );
      }
      const selector = needsSelector ? loadSelector(resolve(io.cwd, flags.selector!)) : undefined;
      const outDir = resolve(io.cwd, flags.out);
      refuseOutputIsInput(
        banks.map((b) => b.file),
        outDir,
        flags.out,
      );
      // Every bank is selected before any is written: a bank that cannot be ranked stops the command
      // with the folder as it was.
      const reports = banks.map(({ file, loaded }) => ({
        request: bankQueryId(loaded.bank),
        file: basename(file),
        ...selectNuggets(loaded.bank, {
          method: flags.method,
          topK: flags.topK,
          maxMostCommon: flags.maxMostCommon,
          seed: flags.seed,
          keepSubNuggets: flags.keepSubNuggets,
          ...(selector ? { selector } : {}),
        }),
      }));
      const files = banks.map((b) => basename(b.file));
      const meta = {
        tool: 'citegeist',
        version: VERSION,
        created_at: new Date().toISOString(),
        method: `dogmatiq-select-${flags.method}`,
        top_k: flags.topK,
        ...(flags.method === 'hybrid' ? { max_most_common: flags.maxMostCommon } : {}),
        ...(flags.method === 'sample' ? { seed: flags.seed } : {}),
        keep_sub_nuggets: flags.keepSubNuggets,
        ...(flags.selector
          ? {
              selector: flags.selector,
              selector_sha256: hashInputs(io.cwd, [flags.selector])[flags.selector],
            }
          : {}),
        inputs_sha256: hashInputs(io.cwd, [flags.bank]),
        banks: reports,
      };
      const folder = ResultFolder.open(outDir, 'select', 'citegeist nuggets select');
      try {
        folder.begin(files);
        for (const { file, loaded } of banks) writeNuggetBankFile(join(outDir, basename(file)), loaded.bank);
        folder.finish(meta, files);
      } finally {
        folder.close();
      }
      if (ctx.globals().json) return void io.out(`${JSON.stringify(meta, null, 2)}\n`);
      for (const r of reports) {
        const how = r.keptAll
          ? `kept all ${r.nuggets} (at most ${flags.topK})`
          : `${r.selected} of ${r.nuggets}${flags.method === 'hybrid' ? ` (${r.byMostCommon} most-common, ${r.byCriteria} by criteria)` : ''}`;
        io.out(
          `${r.request}: ${how}${r.unscored.length ? `; ${r.unscored.length} without quality features not rankable` : ''}\n`,
        );
      }
      io.out(`selected banks: ${flags.out} (how: ${join(flags.out, 'select.meta.json')})\n`);
    });
};

interface TrainFlags {
  positive: string;
  negative: string;
  out: string;
  c: number;
}

/** Feature rows per request of the question nuggets that have all 19 features; the rest counted. */
function featureRows(path: string, cwd: string) {
  const rows = new Map<string, number[][]>();
  let skipped = 0;
  for (const { loaded } of readBankFiles(resolve(cwd, path))) {
    const id = bankQueryId(loaded.bank);
    for (const [, nugget] of nuggetEntries(loaded.bank)) {
      const features = isQuestion(nugget) ? qualityFeatures(nugget) : null;
      const row = features ? QUALITY_FEATURES.map((f) => features.get(f)) : [];
      if (!features || row.some((v) => v === undefined || !Number.isFinite(v))) {
        skipped++;
        continue;
      }
      rows.set(id, [...(rows.get(id) ?? []), row as number[]]);
    }
  }
  return { rows, skipped };
}

export const registerNuggetsTrainSelector: RegisterCommand = (program, ctx) => {
  nuggetsCommand(program)
    .command('train-selector')
    .description(
      'train the criteria selector: a linear SVM over the 19 quality features (standardised per request), human nuggets positive',
    )
    .requiredOption(
      '--positive <path>',
      'banks of good nuggets (human-written), scored with `nuggets score-quality`',
    )
    .requiredOption('--negative <path>', 'banks of generated nuggets, scored the same way')
    .requiredOption('--out <file>', 'the selector file (JSON)')
    .option('--c <value>', 'SVM penalty C', numberOption('--c', { min: 1e-12 }), 1)
    .action((flags: TrainFlags) => {
      const { io } = ctx;
      const pos = featureRows(flags.positive, io.cwd);
      const neg = featureRows(flags.negative, io.cwd);
      const ids = [...new Set([...pos.rows.keys(), ...neg.rows.keys()])].sort();
      const groups: TrainingGroup[] = ids.map((requestId) => ({
        requestId,
        positives: pos.rows.get(requestId) ?? [],
        negatives: neg.rows.get(requestId) ?? [],
      }));
      if (!groups.some((g) => g.positives.length) || !groups.some((g) => g.negatives.length)) {
        throw new CitegeistError(
          'NUGGETS_NOT_SCORED',
          `Training needs scored positive and negative nuggets; found ${groups.reduce((n, g) => n + g.positives.length, 0)} positive and ${groups.reduce((n, g) => n + g.negatives.length, 0)} negative ones with all 19 features (${pos.skipped + neg.skipped} without).`,
          'Score both sets first with `citegeist nuggets score-quality --bank <dir> --model <spec>`.',
        );
      }
      const selector = trainSelector(groups, QUALITY_FEATURES, {
        c: flags.c,
        trained: {
          by: `citegeist ${VERSION} nuggets train-selector`,
          date: new Date().toISOString(),
          positive: flags.positive,
          negative: flags.negative,
          inputs_sha256: hashInputs(io.cwd, [flags.positive, flags.negative]),
          skipped_without_features: pos.skipped + neg.skipped,
        },
      });
      writeFileAtomic(resolve(io.cwd, flags.out), `${JSON.stringify(selector, null, 2)}\n`);
      const t = selector.trained as {
        positives: number;
        negatives: number;
        requests: number;
        svm: { converged: boolean };
      };
      io.out(
        `trained on ${t.positives} positive and ${t.negatives} negative nuggets of ${t.requests} requests${t.svm.converged ? '' : ' (the solver hit its iteration cap)'}; selector: ${flags.out}\n`,
      );
      if (pos.skipped + neg.skipped > 0)
        io.err(`${pos.skipped + neg.skipped} nuggets without all 19 quality features were left out\n`);
    });
};
