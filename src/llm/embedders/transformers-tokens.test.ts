import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TransformersTokenEncoder } from './transformers-tokens.js';

/** A model folder with only the JSON files the encoder reads (no weights: nothing is loaded). */
function folder(
  config: unknown,
  tokenizerConfig: unknown = { cls_token: '[CLS]', sep_token: '[SEP]' },
): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'citegeist-bertscore-')), 'tiny-bert');
  mkdirSync(dir);
  writeFileSync(join(dir, 'config.json'), typeof config === 'string' ? config : JSON.stringify(config));
  writeFileSync(join(dir, 'tokenizer_config.json'), JSON.stringify(tokenizerConfig));
  return dir;
}

const VOCAB = new Map([
  ['[PAD]', 0],
  ['[CLS]', 101],
  ['[SEP]', 102],
  ['hello', 7],
  ['world', 8],
]);

/** A stand-in for @huggingface/transformers: whitespace tokenizer, 2-d vectors (id, layer). */
function fakeTransformers(outputs: 'last' | 'hidden', calls: string[][] = []) {
  const tokenizer = Object.assign(
    (texts: string[], options: Record<string, unknown>) => {
      calls.push(texts);
      expect(options).toMatchObject({ padding: true, truncation: true });
      const rows = texts.map((t) => [
        101,
        ...t
          .split(/\s+/)
          .filter(Boolean)
          .map((w) => VOCAB.get(w) ?? 1),
        102,
      ]);
      const width = Math.max(...rows.map((r) => r.length));
      const ids = rows.flatMap((r) => [...r, ...Array(width - r.length).fill(0)]);
      const mask = rows.flatMap((r) => [...r.map(() => 1), ...Array(width - r.length).fill(0)]);
      return {
        input_ids: { data: BigInt64Array.from(ids.map(BigInt)), dims: [rows.length, width] },
        attention_mask: { data: BigInt64Array.from(mask.map(BigInt)), dims: [rows.length, width] },
      };
    },
    { model_max_length: 512, model: { tokens_to_ids: VOCAB } },
  );
  const layerTensor = (ids: Tensor, layer: number) => ({
    data: Float32Array.from(Array.from(ids.data, (id) => [Number(id), layer]).flat()),
    dims: [...ids.dims, 2],
  });
  type Tensor = { data: ArrayLike<number | bigint>; dims: number[] };
  const model = async (inputs: { input_ids: Tensor }) =>
    outputs === 'last'
      ? { last_hidden_state: layerTensor(inputs.input_ids, 2) }
      : { hidden_states: [0, 1, 2, 3, 4].map((l) => layerTensor(inputs.input_ids, l)) };
  return async () => ({
    env: { allowRemoteModels: true, allowLocalModels: false, localModelPath: '' },
    AutoTokenizer: { from_pretrained: async () => tokenizer },
    AutoModel: { from_pretrained: async () => model },
  });
}

describe('TransformersTokenEncoder', () => {
  it('refuses a missing folder', () => {
    expect(
      () =>
        new TransformersTokenEncoder({
          folder: '/nonexistent/roberta-large',
          modelName: 'roberta-large',
          layer: 17,
        }),
    ).toThrow(/No model folder with a config.json at \/nonexistent\/roberta-large/);
  });

  it.each([
    ['a decoder model', { model_type: 'gpt2', n_layer: 12 }, /model_type "gpt2": not an encoder model/],
    ['no model_type', { hidden_size: 8 }, /model_type null: not an encoder model/],
    ['a config that is not JSON', '{oops', /config.json is not valid JSON/],
    [
      'a layer the model does not have',
      { model_type: 'bert', num_hidden_layers: 4 },
      /Layer 9 does not exist: .* has 4 layers/,
    ],
  ])('refuses %s', (_name, config, message) => {
    expect(
      () =>
        new TransformersTokenEncoder({ folder: folder(config), modelName: 'bert-base-uncased', layer: 9 }),
    ).toThrow(message);
  });

  it('says how to install the optional package when it is missing', async () => {
    const encoder = new TransformersTokenEncoder({
      folder: folder({ model_type: 'bert', num_hidden_layers: 2 }),
      modelName: 'tiny',
      layer: 2,
      importer: async () => {
        throw Object.assign(new Error("Cannot find package '@huggingface/transformers'"), {
          code: 'ERR_MODULE_NOT_FOUND',
        });
      },
    });
    await expect(encoder.encode(['hello'])).rejects.toThrow(/npm install @huggingface\/transformers@4.3.2/);
  });

  it('encodes stripped texts with special tokens flagged and padding removed', async () => {
    const calls: string[][] = [];
    const encoder = new TransformersTokenEncoder({
      folder: folder({ model_type: 'bert', num_hidden_layers: 2 }),
      modelName: 'tiny',
      layer: 2,
      importer: fakeTransformers('last', calls),
    });
    const [a, b] = await encoder.encode(['  hello world ', '']);
    expect(calls).toEqual([['hello world', '']]);
    expect(a!.tokens).toEqual([101, 7, 8, 102]);
    expect(a!.special).toEqual([true, false, false, true]);
    expect(a!.vectors.map((v) => Array.from(v))).toEqual([
      [101, 2],
      [7, 2],
      [8, 2],
      [102, 2],
    ]);
    expect(b!.tokens).toEqual([101, 102]);
    expect(encoder.id).toBe('transformers:tiny@L2');
  });

  it('reads the requested layer from hidden_states outputs', async () => {
    const encoder = new TransformersTokenEncoder({
      folder: folder(
        { model_type: 'roberta', num_hidden_layers: 4 },
        { cls_token: { content: '[CLS]' }, sep_token: '[SEP]' },
      ),
      modelName: 'tiny',
      layer: 3,
      importer: fakeTransformers('hidden'),
    });
    const [a] = await encoder.encode(['hello']);
    expect(a!.vectors.map((v) => v[1])).toEqual([3, 3, 3]);
  });

  it('refuses a model whose only output is another layer than the one asked for', async () => {
    const encoder = new TransformersTokenEncoder({
      folder: folder({ model_type: 'bert', num_hidden_layers: 4 }),
      modelName: 'tiny',
      layer: 2,
      importer: fakeTransformers('last'),
    });
    await expect(encoder.encode(['hello'])).rejects.toThrow(
      /returns the output of layer 4 only; BERTScore for tiny uses layer 2/,
    );
  });
});
