import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { CitegeistError } from '../../core/index.js';
import { readJsonFile } from '../../io/index.js';
import type { Embedder, EmbedRole } from '../embedder.js';
import { loadOptional, type ModuleImporter } from '../optional-module.js';
import { normalize } from './tokenize.js';

export const TRANSFORMERS_VERSION = '4.3.2';

/** How a model family wants its inputs and outputs (from each model card). */
export interface TransformersPreset {
  queryPrefix: string;
  passagePrefix: string;
  pooling: 'mean' | 'cls';
  normalize: boolean;
}

export const PRESETS: Record<string, TransformersPreset> = {
  /** BAAI bge-*-en-v1.5: instruction on queries only, CLS pooling. */
  bge: {
    queryPrefix: 'Represent this sentence for searching relevant passages: ',
    passagePrefix: '',
    pooling: 'cls',
    normalize: true,
  },
  /** intfloat e5-*: "query: " / "passage: ", mean pooling. */
  e5: { queryPrefix: 'query: ', passagePrefix: 'passage: ', pooling: 'mean', normalize: true },
  /** sentence-transformers all-MiniLM-*: no prefixes, mean pooling. */
  minilm: { queryPrefix: '', passagePrefix: '', pooling: 'mean', normalize: true },
  /** facebook/contriever: no prefixes, mean pooling, dot product on unnormalised vectors. */
  contriever: { queryPrefix: '', passagePrefix: '', pooling: 'mean', normalize: false },
};

/** The feature-extraction pipeline as transformers.js exposes it (typed here: the package is optional). */
export type FeatureExtractor = (
  texts: string[],
  options: { pooling: 'mean' | 'cls'; normalize: boolean },
) => Promise<{ data: Float32Array | number[]; dims: number[] }>;

interface TransformersModule {
  env: { allowRemoteModels: boolean; allowLocalModels: boolean; localModelPath: string };
  pipeline(
    task: 'feature-extraction',
    model: string,
    options?: Record<string, unknown>,
  ): Promise<FeatureExtractor>;
}

export interface TransformersOptions extends Partial<TransformersPreset> {
  folder: string;
  preset?: string;
  batchSize?: number;
  importer?: ModuleImporter;
  /** Skips loading the package (tests inject a fake pipeline). */
  extractor?: FeatureExtractor;
}

/**
 * A local ONNX model folder (config.json, tokenizer files, onnx/model.onnx) through
 * @huggingface/transformers — an optional peer dependency loaded on first use — with remote
 * loading disabled, so nothing is ever downloaded. Prefixes, pooling and normalisation come from
 * a preset (bge, e5, minilm, contriever) and can be overridden one by one.
 */
export class TransformersEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  readonly normalized: boolean;
  readonly config: TransformersPreset;
  private readonly folder: string;
  private extractor: Promise<FeatureExtractor> | undefined;

  constructor(private readonly options: TransformersOptions) {
    this.folder = resolve(options.folder);
    const preset = options.preset ?? guessPreset(this.folder);
    const base = PRESETS[preset];
    if (!base) {
      throw new CitegeistError(
        'BAD_EMBEDDER_SPEC',
        `Unknown transformers preset "${preset}".`,
        `Use one of: ${Object.keys(PRESETS).join(', ')}.`,
      );
    }
    this.config = {
      queryPrefix: options.queryPrefix ?? base.queryPrefix,
      passagePrefix: options.passagePrefix ?? base.passagePrefix,
      pooling: options.pooling ?? base.pooling,
      normalize: options.normalize ?? base.normalize,
    };
    this.normalized = this.config.normalize;
    this.dimensions = readDimensions(this.folder);
    this.id = `transformers:${basename(this.folder)}?preset=${preset}&pooling=${this.config.pooling}${this.normalized ? '' : '&normalize=false'}`;
    if (options.extractor) this.extractor = Promise.resolve(options.extractor);
  }

  async embed(texts: string[], role: EmbedRole): Promise<Float32Array[]> {
    const extract = await this.load();
    const prefix = role === 'query' ? this.config.queryPrefix : this.config.passagePrefix;
    const size = Math.max(1, this.options.batchSize ?? 32);
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += size) {
      const batch = texts.slice(i, i + size).map((t) => prefix + t);
      const tensor = await extract(batch, { pooling: this.config.pooling, normalize: false });
      const d = tensor.dims.at(-1) ?? 0;
      if (d !== this.dimensions || tensor.data.length !== batch.length * d) {
        throw new CitegeistError(
          'EMBEDDER_MISCONFIGURED',
          `The model in ${this.folder} returned ${d}-d vectors; its config says ${this.dimensions}.`,
          'Check the model folder.',
        );
      }
      for (let j = 0; j < batch.length; j++) {
        const v = Float32Array.from(tensor.data.slice(j * d, (j + 1) * d));
        out.push(this.config.normalize ? normalize(v) : v);
      }
    }
    return out;
  }

  private load(): Promise<FeatureExtractor> {
    this.extractor ??= (async () => {
      const lib = await loadOptional<TransformersModule>(
        '@huggingface/transformers',
        TRANSFORMERS_VERSION,
        `The embedder ${this.id}`,
        this.options.importer,
      );
      lib.env.allowRemoteModels = false;
      lib.env.allowLocalModels = true;
      lib.env.localModelPath = dirname(this.folder);
      return lib.pipeline('feature-extraction', basename(this.folder), { local_files_only: true });
    })();
    return this.extractor;
  }
}

function guessPreset(folder: string): string {
  const name = basename(folder).toLowerCase();
  if (name.includes('bge')) return 'bge';
  if (name.includes('e5')) return 'e5';
  if (name.includes('contriever')) return 'contriever';
  return 'minilm';
}

function readDimensions(folder: string): number {
  const file = join(folder, 'config.json');
  if (!existsSync(file)) {
    throw new CitegeistError(
      'FILE_NOT_FOUND',
      `No model folder with a config.json at ${folder}.`,
      'Point transformers:<folder> at a local ONNX model folder (e.g. a downloaded Xenova/bge-small-en-v1.5).',
    );
  }
  const config = readJsonFile(file, 'model config') as {
    hidden_size?: number;
    dim?: number;
    d_model?: number;
  };
  const dims = config.hidden_size ?? config.dim ?? config.d_model;
  if (!dims)
    throw new CitegeistError(
      'EMBEDDER_MISCONFIGURED',
      `${file} names no hidden_size.`,
      'Check the model folder.',
    );
  return dims;
}
