import { join, resolve } from 'node:path';
import {
  readBankFiles,
  SELECT_METHODS,
  type SelectMethod,
  selectNuggetBanks,
  selectorFor,
  trainSelectorOnBanks,
} from '../../generate/index.js';
import { hashInputs, writeFileAtomic } from '../../io/index.js';
import { VERSION } from '../../version.js';
import type { RegisterCommand } from '../context.js';
import { nuggetsCommand, refuseOutputIsInput } from '../setup/nuggets-inputs.js';
import { choiceOption, countOption, numberOption } from '../setup/option-parsers.js';

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
      const selector = selectorFor(flags.method, flags.selector && resolve(io.cwd, flags.selector));
      const outDir = resolve(io.cwd, flags.out);
      const hashOf = (path: string) => hashInputs(io.cwd, [path])[path];
      refuseOutputIsInput(
        banks.map((b) => b.file),
        outDir,
        flags.out,
      );
      const meta = selectNuggetBanks(
        banks,
        outDir,
        {
          method: flags.method,
          topK: flags.topK,
          maxMostCommon: flags.maxMostCommon,
          seed: flags.seed,
          keepSubNuggets: flags.keepSubNuggets,
          ...(selector ? { selector } : {}),
        },
        {
          version: VERSION,
          createdAt: new Date().toISOString(),
          ...(flags.selector ? { selector: { path: flags.selector, sha256: hashOf(flags.selector) } } : {}),
          inputsSha256: hashInputs(io.cwd, [flags.bank]),
        },
      );
      if (ctx.globals().json) return void io.out(`${JSON.stringify(meta, null, 2)}\n`);
      for (const r of meta.banks) {
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
      const { selector, skipped } = trainSelectorOnBanks(
        readBankFiles(resolve(io.cwd, flags.positive)),
        readBankFiles(resolve(io.cwd, flags.negative)),
        {
          c: flags.c,
          trained: {
            by: `citegeist ${VERSION} nuggets train-selector`,
            date: new Date().toISOString(),
            positive: flags.positive,
            negative: flags.negative,
            inputs_sha256: hashInputs(io.cwd, [flags.positive, flags.negative]),
          },
        },
      );
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
      if (skipped > 0) io.err(`${skipped} nuggets without all 19 quality features were left out\n`);
    });
};
