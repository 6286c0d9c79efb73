import { CitegeistError } from '../../core/index.js';
import type { BaselineValues } from './bertscore.js';

/**
 * The baseline of one layer from a bert_score baseline file (`rescale_baseline/<lang>/<model>.tsv`:
 * despite the name, comma-separated, header `LAYER,P,R,F`, one row per layer). As bert_score does
 * (`pd.read_csv(path).iloc[num_layers].to_numpy()[1:]`), the row is taken by position — the
 * `layer`-th data row — not by the value of its LAYER column.
 */
export function parseBertScoreBaseline(text: string, layer: number, file: string): BaselineValues {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const header = (lines[0] ?? '').split(',').map((h) => h.trim());
  if (header.length < 4 || header.slice(1, 4).join(',') !== 'P,R,F') {
    throw new CitegeistError(
      'INVALID_INPUT',
      `${file}: the first line is "${lines[0] ?? ''}", not a bert_score baseline header (LAYER,P,R,F).`,
      "Give one of bert_score's rescale_baseline files (e.g. rescale_baseline/en/roberta-large.tsv).",
    );
  }
  const row = lines[1 + layer];
  if (row === undefined) {
    throw new CitegeistError(
      'INVALID_INPUT',
      `${file} has ${lines.length - 1} layer rows; layer ${layer} needs row ${layer + 1}.`,
      'Use the baseline file of the model and layer being scored.',
    );
  }
  const values = row.split(',').slice(1, 4).map(Number);
  if (values.length !== 3 || values.some((v) => !Number.isFinite(v) || v >= 1)) {
    throw new CitegeistError(
      'INVALID_INPUT',
      `${file} line ${layer + 2}: "${row}" does not hold three numbers below 1.`,
      'Check the baseline file.',
    );
  }
  return { precision: values[0]!, recall: values[1]!, f1: values[2]! };
}
