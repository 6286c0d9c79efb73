import type { Command } from 'commander';
import { collect, numberOption } from './option-parsers.js';

/** The flags of every command that makes or shows judged numbers. */
export interface JudgeCardFlags {
  judgeCard?: string;
  requireAgreement?: number;
}

/**
 * `--judge-card FILE` (the judge's card, checked against its model and prompt version; without it
 * a card is looked for in the workspace) and `--require-agreement X` (refuse the judged numbers
 * when the card's κ, else α, is below X or no card is found). See docs/judges.md.
 */
export function addJudgeCardOptions(command: Command, judge: string, repeatable = false): Command {
  const help = `judge card of the ${judge} (meta-eval judge --out): checked against the judge and its prompt version, shown beside the judged numbers (default: a matching *card.json found beside the files, in ./judge-cards or .)`;
  return (
    repeatable
      ? // no default value: commander would print "(default: [])" after the help's own default
        command.option(
          '--judge-card <file>',
          `${help}; repeatable, one per judge`,
          (v: string, prev?: string[]) => collect(v, prev ?? []),
        )
      : command.option('--judge-card <file>', help)
  ).option(
    '--require-agreement <x>',
    "refuse the judged numbers unless the judge's card gives a headline agreement with people (Cohen's κ, else Krippendorff's α) of at least x",
    numberOption('--require-agreement', { min: -1, max: 1, example: 0.6 }),
  );
}
