import { basename, resolve } from 'node:path';
import type { Command } from 'commander';
import { CitegeistError } from '../core/index.js';
import {
  type BertScoreSettings,
  defaultBertScoreLayer,
  parseBertScoreBaseline,
  type QaMetricId,
} from '../grade/index.js';
import { readTextFile } from '../io/index.js';
import { readModelConfig, TransformersTokenEncoder } from '../llm/index.js';
import { parseIntOption } from './commands/option-parsers.js';
import type { CliContext } from './context.js';

export interface BertScoreFlags {
  bertscoreModel?: string;
  bertscoreType?: string;
  bertscoreLayer?: number;
  idf: boolean;
  baselineFile?: string;
}

/** How BERTScore was computed, written beside its scores. */
export interface BertScoreProvenance {
  encoder: string;
  model_folder: string;
  model_type: string;
  layer: number;
  idf: boolean;
  baseline_file: string | null;
  /** bert_score's own settings string (`get_hash`) for the same settings, to compare with papers. */
  bert_score_hash: string;
}

export function addBertScoreOptions(command: Command): Command {
  return command
    .option('--bertscore-model <folder>', 'local transformers.js (ONNX) model folder for BERTScore')
    .option(
      '--bertscore-type <name>',
      "the model's name in bert_score (picks the layer), e.g. roberta-large (default: config.json _name_or_path, else the folder name)",
    )
    .option(
      '--bertscore-layer <n>',
      'hidden layer to use (default: bert_score model2layers)',
      parseIntOption('--bertscore-layer', 0),
    )
    .option('--idf', 'BERTScore idf weighting from the references', false)
    .option(
      '--baseline-file <file>',
      'rescale BERTScore with a bert_score baseline file (rescale_baseline/<lang>/<model>.tsv)',
    );
}

/**
 * BERTScore settings from the flags when "bertscore" is among the metrics (the model is loaded
 * lazily, on the first encode); undefined otherwise.
 */
export function bertScoreSetup(
  ctx: CliContext,
  metrics: readonly QaMetricId[],
  flags: BertScoreFlags,
): { settings: BertScoreSettings; provenance: BertScoreProvenance } | undefined {
  if (!metrics.includes('bertscore')) return undefined;
  if (!flags.bertscoreModel) {
    throw new CitegeistError(
      'OPTION_REQUIRED',
      'BERTScore needs an embedding model, and none was given.',
      'Add --bertscore-model <folder> (a local ONNX model folder such as roberta-large exported for transformers.js), or drop bertscore from --metric.',
    );
  }
  const folder = resolve(ctx.io.cwd, flags.bertscoreModel);
  const config = readModelConfig(folder) as { _name_or_path?: string };
  const modelType = flags.bertscoreType ?? (config._name_or_path || basename(folder));
  const layer = flags.bertscoreLayer ?? defaultBertScoreLayer(modelType);
  if (layer === null) {
    throw new CitegeistError(
      'OPTION_REQUIRED',
      `bert_score has no default layer for "${modelType}".`,
      'Name the model as bert_score does with --bertscore-type (e.g. roberta-large), or choose the layer with --bertscore-layer.',
    );
  }
  const encoder = new TransformersTokenEncoder({ folder, modelName: modelType, layer });
  const baselinePath = flags.baselineFile ? resolve(ctx.io.cwd, flags.baselineFile) : null;
  const baseline = baselinePath
    ? parseBertScoreBaseline(readTextFile(baselinePath, 'baseline file'), layer, baselinePath)
    : undefined;
  const hash = `${modelType}_L${layer}${flags.idf ? '_idf' : '_no-idf'}${baseline ? '-custom-rescaled' : ''}`;
  return {
    settings: { encoder, idf: flags.idf, ...(baseline ? { baseline } : {}) },
    provenance: {
      encoder: encoder.id,
      model_folder: folder,
      model_type: modelType,
      layer,
      idf: flags.idf,
      baseline_file: baselinePath,
      bert_score_hash: hash,
    },
  };
}
