/**
 * BERTScore with a real model against bert_score's own expected values
 * (tests/test_score_function.py, roberta-large at layer 17). Needs a local transformers.js folder
 * of roberta-large exported with its first 17 layers (num_hidden_layers = 17):
 *   CITEGEIST_BERTSCORE_ROBERTA_LARGE=/path/to/roberta-large-L17 npm run test:live
 * Tolerance 1e-3: ONNX and PyTorch differ in the last float32 digits, and transformers.js uses the
 * fast tokenizer where bert_score uses the slow one.
 */
import { describe, expect, it } from 'vitest';
import { TransformersTokenEncoder } from '../../llm/index.js';
import { bertScore } from './bertscore.js';

const folder = process.env.CITEGEIST_BERTSCORE_ROBERTA_LARGE;

const cands = [
  '28-year-old chef found dead in San Francisco mall',
  'A 28-year-old chef who recently moved to San Francisco was found dead in the staircase of a local shopping center.',
  'The victim\'s brother said he cannot imagine anyone who would want to harm him,"Finally, it went uphill again at him."',
];
const refs = [
  '28-Year-Old Chef Found Dead at San Francisco Mall',
  'A 28-year-old chef who had recently moved to San Francisco was found dead in the stairwell of a local mall this week.',
  'But the victim\'s brother says he can\'t think of anyone who would want to hurt him, saying, "Things were finally going well for him."',
];

describe.skipIf(!folder)('BERTScore with roberta-large (bert_score test_score_function.py)', () => {
  it.each([
    [
      'test_score',
      false,
      [0.9843302369117737, 0.9832239747047424, 0.9120386242866516],
      [0.9823839068412781, 0.9732863903045654, 0.920428991317749],
      [0.9833561182022095, 0.9782299995422363, 0.916214644908905],
    ],
    [
      'test_idf_score',
      true,
      [0.9837872385978699, 0.9754738807678223, 0.8947395086288452],
      [0.9827190637588501, 0.9697767496109009, 0.9172918796539307],
      [0.9832529425621033, 0.972616970539093, 0.9058753848075867],
    ],
  ])('%s', async (_name, idf, p, r, f) => {
    const encoder = new TransformersTokenEncoder({ folder: folder!, modelName: 'roberta-large', layer: 17 });
    const encoded = await encoder.encode([...cands, ...refs]);
    const scores = bertScore(
      encoded.slice(0, 3),
      encoded.slice(3).map((e) => [e]),
      { idf },
    );
    scores.forEach((s, i) => {
      expect(Math.abs(s!.precision! - p[i]!)).toBeLessThan(1e-3);
      expect(Math.abs(s!.recall! - r[i]!)).toBeLessThan(1e-3);
      expect(Math.abs(s!.f1 - f[i]!)).toBeLessThan(1e-3);
    });
  });
});
