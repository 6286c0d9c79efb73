import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { CitegeistError, quoteValue } from '../../core/index.js';
import { readJsonFile } from '../../io/index.js';
import { loadOptional, type ModuleImporter } from '../optional-module.js';
import type { EncodedText, TokenEncoder } from '../token-encoder.js';
import { TRANSFORMERS_VERSION } from './transformers.js';

/** Encoder-only architectures whose hidden states BERTScore can use (config.json `model_type`). */
export const ENCODER_MODEL_TYPES = [
  'bert',
  'roberta',
  'xlm-roberta',
  'camembert',
  'distilbert',
  'albert',
  'electra',
  'deberta',
  'deberta-v2',
  'mpnet',
  'convbert',
  'squeezebert',
  'longformer',
  'modernbert',
] as const;

/** A tensor as transformers.js returns it (typed here: the package is optional). */
interface Tensor {
  data: ArrayLike<number | bigint>;
  dims: number[];
}
interface Tokenizer {
  (texts: string[], options: Record<string, unknown>): { input_ids: Tensor; attention_mask: Tensor };
  model_max_length?: number;
  model?: { tokens_to_ids?: Map<string, number> };
}
type Model = (inputs: Record<string, unknown>) => Promise<Record<string, Tensor | Tensor[] | undefined>>;
interface TransformersModule {
  env: { allowRemoteModels: boolean; allowLocalModels: boolean; localModelPath: string };
  AutoTokenizer: { from_pretrained(name: string, options?: Record<string, unknown>): Promise<Tokenizer> };
  AutoModel: { from_pretrained(name: string, options?: Record<string, unknown>): Promise<Model> };
}

export interface TransformersTokenOptions {
  folder: string;
  /** The model's name in bert_score's terms (its `model_type`), e.g. "roberta-large". */
  modelName: string;
  /** The hidden layer to use (bert_score's `num_layers`). */
  layer: number;
  batchSize?: number;
  importer?: ModuleImporter;
}

interface ModelConfig {
  model_type?: string;
  num_hidden_layers?: number;
  n_layers?: number;
  _name_or_path?: string;
}

/** config.json of a model folder, with the errors a user can act on. */
export function readModelConfig(folder: string): ModelConfig {
  const file = join(folder, 'config.json');
  if (!existsSync(file)) {
    throw new CitegeistError(
      'FILE_NOT_FOUND',
      `No model folder with a config.json at ${folder}.`,
      'Point --bertscore-model at a local transformers.js (ONNX) model folder: config.json, tokenizer files, onnx/model.onnx.',
    );
  }
  const config = readJsonFile(file, 'model config') as ModelConfig;
  const type = config.model_type;
  if (!(ENCODER_MODEL_TYPES as readonly string[]).includes(type ?? '')) {
    throw new CitegeistError(
      'EMBEDDER_MISCONFIGURED',
      `${file} has model_type ${quoteValue(type ?? null)}: not an encoder model BERTScore can use here.`,
      `Use an encoder model (model_type one of ${ENCODER_MODEL_TYPES.join(', ')}), e.g. roberta-large or bert-base-uncased exported to ONNX.`,
    );
  }
  return config;
}

/**
 * Contextual token vectors from a local ONNX model folder through @huggingface/transformers (an
 * optional peer, loaded on first use, remote loading disabled: nothing is downloaded). Each text
 * is stripped and encoded with special tokens and truncation to the model's maximum length, as
 * bert_score's `sent_encode` does; positions holding the CLS or SEP token are flagged special.
 *
 * BERTScore reads layer L (bert_score keeps the first L layers of the model). An ONNX export
 * returns its last layer only, so the folder must hold a model whose last layer is L (exported
 * with `num_hidden_layers` = L), unless its outputs include `hidden_states`.
 */
export class TransformersTokenEncoder implements TokenEncoder {
  readonly id: string;
  private readonly folder: string;
  private readonly config: ModelConfig;
  private loaded: Promise<{ tokenizer: Tokenizer; model: Model; special: Set<number> }> | undefined;

  constructor(private readonly options: TransformersTokenOptions) {
    this.folder = resolve(options.folder);
    this.config = readModelConfig(this.folder);
    const depth = this.config.num_hidden_layers ?? this.config.n_layers;
    if (depth !== undefined && (options.layer < 0 || options.layer > depth)) {
      throw new CitegeistError(
        'BAD_OPTION',
        `Layer ${options.layer} does not exist: ${this.folder} has ${depth} layers.`,
        `Use --bertscore-layer between 0 and ${depth}.`,
      );
    }
    this.id = `transformers:${options.modelName}@L${options.layer}`;
  }

  /** The layer count of the exported model (its last hidden state is that layer). */
  get depth(): number | undefined {
    return this.config.num_hidden_layers ?? this.config.n_layers;
  }

  async encode(texts: readonly string[], signal?: AbortSignal): Promise<EncodedText[]> {
    const { tokenizer, model, special } = await this.load();
    const size = Math.max(1, this.options.batchSize ?? 16);
    const maxLength = Math.min(tokenizer.model_max_length ?? 512, 100_000);
    const out: EncodedText[] = [];
    for (let i = 0; i < texts.length; i += size) {
      signal?.throwIfAborted();
      const batch = texts.slice(i, i + size).map((t) => t.trim());
      const inputs = tokenizer(batch, { padding: true, truncation: true, max_length: maxLength });
      const outputs = await model(inputs);
      const hidden = this.layerOf(outputs);
      const [rows = 0, width = 0, dims = 0] = hidden.dims;
      const ids = inputs.input_ids.data;
      const mask = inputs.attention_mask.data;
      for (let r = 0; r < rows; r++) {
        const tokens: number[] = [];
        const vectors: Float32Array[] = [];
        for (let t = 0; t < width; t++) {
          if (Number(mask[r * width + t]) === 0) continue;
          tokens.push(Number(ids[r * width + t]));
          const at = (r * width + t) * dims;
          vectors.push(Float32Array.from({ length: dims }, (_, d) => Number(hidden.data[at + d])));
        }
        out.push({ tokens, special: tokens.map((id) => special.has(id)), vectors });
      }
    }
    return out;
  }

  private layerOf(outputs: Record<string, Tensor | Tensor[] | undefined>): Tensor {
    const states = outputs.hidden_states;
    if (Array.isArray(states) && states[this.options.layer]) return states[this.options.layer]!;
    const last = outputs.last_hidden_state;
    if (last && !Array.isArray(last) && this.depth === this.options.layer) return last;
    throw new CitegeistError(
      'EMBEDDER_MISCONFIGURED',
      `${this.folder} returns the output of layer ${this.depth ?? '?'} only; BERTScore for ${this.options.modelName} uses layer ${this.options.layer}.`,
      `Export the model with its first ${this.options.layer} layers (num_hidden_layers = ${this.options.layer}) or with hidden_states outputs, or pass --bertscore-layer ${this.depth ?? 'N'} to score with the last layer (not comparable with published BERTScore for this model).`,
    );
  }

  private load() {
    this.loaded ??= (async () => {
      const lib = await loadOptional<TransformersModule>(
        '@huggingface/transformers',
        TRANSFORMERS_VERSION,
        `BERTScore with ${this.folder}`,
        this.options.importer,
      );
      lib.env.allowRemoteModels = false;
      lib.env.allowLocalModels = true;
      lib.env.localModelPath = dirname(this.folder);
      const name = basename(this.folder);
      const tokenizer = await lib.AutoTokenizer.from_pretrained(name, { local_files_only: true });
      const model = await lib.AutoModel.from_pretrained(name, { local_files_only: true, dtype: 'fp32' });
      return { tokenizer, model, special: this.specialIds(tokenizer) };
    })();
    return this.loaded;
  }

  /** The CLS and SEP token ids (bert_score zero-weights `tokenizer.cls_token_id` and `sep_token_id`). */
  private specialIds(tokenizer: Tokenizer): Set<number> {
    const names = {
      ...readJson(join(this.folder, 'special_tokens_map.json')),
      ...readJson(join(this.folder, 'tokenizer_config.json')),
    };
    const ids = new Set<number>();
    for (const key of ['cls_token', 'sep_token']) {
      const value = names[key];
      const token = typeof value === 'string' ? value : (value as { content?: string } | undefined)?.content;
      const id = token === undefined ? undefined : tokenizer.model?.tokens_to_ids?.get(token);
      if (id !== undefined) ids.add(id);
    }
    if (ids.size === 0) {
      throw new CitegeistError(
        'EMBEDDER_MISCONFIGURED',
        `The tokenizer in ${this.folder} names no CLS or SEP token (tokenizer_config.json, special_tokens_map.json).`,
        'Use a model folder whose tokenizer files declare cls_token and sep_token.',
      );
    }
    return ids;
  }
}

function readJson(file: string): Record<string, unknown> {
  if (!existsSync(file)) return {};
  try {
    return readJsonFile(file, 'tokenizer config') as Record<string, unknown>;
  } catch {
    return {};
  }
}
