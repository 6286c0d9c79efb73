import type { Command } from 'commander';
import { SET_JUDGE_KINDS, type SetJudgeKind } from '../../grade/index.js';
import type { LlmFlags } from '../llm-options.js';
import { choiceOption, countOption, seedOption } from './option-parsers.js';

/** The flags of `citegeist meta-eval judge`. */
export interface MetaEvalJudgeOptions extends LlmFlags {
  set: string;
  data?: string;
  dimension?: string;
  labels?: string;
  judgeKind?: SetJudgeKind;
  judgments?: string;
  reference?: 'gold' | 'each';
  limit?: number;
  sampleSeed: number;
  iterations: number;
  seed: number;
  out?: string;
  listItems?: boolean;
  judgeFamily?: string;
  judgeModel?: string;
  promptVersion?: string;
  probeVerbosity?: boolean;
}

/** Registers the flags of `meta-eval judge` (the set, the judge or its labels, the sample, the bootstrap). */
export function addMetaEvalJudgeOptions(command: Command): Command {
  return command
    .requiredOption('--set <name>', 'human-judgment set: check-covid, ragchecker, crowdrag25, alce-utility')
    .option('--data <dir>', 'folder holding the sets (default $CITEGEIST_HUMAN_LABELS or ./human-labels)')
    .option(
      '--dimension <name>',
      'the judged aspect (ragchecker: correctness|completeness|overall; crowdrag25: its 7 dimensions)',
    )
    .option(
      '--labels <file>',
      'a judge’s labels: JSONL {id, label|score} (a judgments file) or CSV/TSV with id,label',
    )
    .option(
      '--judge-kind <kind>',
      `with --judge: ${SET_JUDGE_KINDS.join(', ')} (default: claim-support for check-covid, else rubric)`,
      choiceOption('--judge-kind', SET_JUDGE_KINDS),
    )
    .option(
      '--judgments <file>',
      'with --judge: the judgments file (resumed when rerun; default <out>.judgments.jsonl)',
    )
    .option(
      '--reference <which>',
      'compare with the gold label or with each human label (default: gold where the set has one)',
      choiceOption('--reference', ['gold', 'each'] as const),
    )
    .option('--limit <n>', 'judge a stratified sample of n items', countOption('--limit'))
    .option('--sample-seed <n>', 'seed of the --limit sample', seedOption('--sample-seed'), 0)
    .option('--iterations <n>', 'bootstrap resamples', countOption('--iterations'), 10_000)
    .option('--seed <n>', 'bootstrap seed', seedOption('--seed'), 0)
    .option('--out <file>', 'write the card (JSON with its run manifest) here')
    .option('--list-items', 'print the set’s item ids and stop')
    .option(
      '--probe-verbosity',
      'with a rubric judge: judge every answer again padded with neutral text of the same topic and report the score shift',
    )
    .option(
      '--judge-family <family>',
      'with --labels: the judge model’s family (openai, meta, …) for the self-preference probe',
    )
    .option(
      '--judge-model <id>',
      'with --labels: the judge the labels come from, as the card names it (default: the labels file’s manifest, else its name); a card certifies numbers of this model only',
    )
    .option(
      '--prompt-version <v>',
      'with --labels: the judge prompt’s version (default: the labels file’s manifest); JUDGE_UNCERTIFIED messages print the one a command needs',
    );
}
