import { resolve } from 'node:path';
import { evaluateQasper, goldReferences, parseQasperPredictions } from '../../grade/index.js';
import { readJsonFile, readTextFile } from '../../io/index.js';
import type { RegisterCommand } from '../context.js';

export const registerQasperEval: RegisterCommand = (program, ctx) => {
  program
    .command('qasper-eval')
    .description("QASPER's official Answer F1 and Evidence F1 (same JSON as qasper_evaluator.py)")
    .requiredOption('--gold <json>', 'QASPER gold file (native layout, or questions_validation.json)')
    .requiredOption(
      '--predictions <jsonl>',
      'one {question_id, predicted_answer, predicted_evidence} per line',
    )
    .option('--text-evidence-only', 'drop FLOAT SELECTED (table/figure) evidence from the gold', false)
    .action((opts: { gold: string; predictions: string; textEvidenceOnly: boolean }) => {
      const goldFile = resolve(ctx.io.cwd, opts.gold);
      const predFile = resolve(ctx.io.cwd, opts.predictions);
      const gold = goldReferences(
        readJsonFile(goldFile, 'QASPER gold file'),
        opts.textEvidenceOnly,
        goldFile,
      );
      const predictions = parseQasperPredictions(readTextFile(predFile, 'predictions file'), predFile);
      ctx.io.out(`${JSON.stringify(evaluateQasper(gold, predictions), null, 2)}\n`);
    });
};
