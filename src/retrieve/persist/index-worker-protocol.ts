import type { ErrorCode } from '../../core/index.js';
import type { AnalyzerConfig, Bm25DiskHeader, Bm25Segments } from '../lexical/index.js';
import type { ShardResult, ShardSettings } from './index-shard.js';

/** Index a run of papers into a shard folder (`buildShard`), reading them from the corpus file. */
export interface ShardRequest {
  kind: 'shard';
  task: number;
  corpusPath: string;
  ids: string[];
  dir: string;
  settings: ShardSettings;
}

/** Embed a shard's spooled texts into `dense.f32` in its folder, with a fitted model (`embedShards`). */
export interface EmbedRequest {
  kind: 'embed';
  task: number;
  dir: string;
  passages: number;
  papers: number;
  /** The embedder spec and its fitted model, as saved with the index. */
  spec: string;
  model: unknown;
  batchSize: number;
}

/** Merge the shards' BM25 segments into one part (`mergeBm25Segments`), beside the dense pass. */
export interface MergeRequest {
  kind: 'merge';
  task: number;
  partDir: string;
  writers: Bm25Segments[];
  analyzer: AnalyzerConfig;
  params: { k1: number; b: number };
}

export type IndexWorkerRequest = ShardRequest | EmbedRequest | MergeRequest;

export type IndexWorkerResponse =
  | { task: number; papers: number }
  | { task: number; shard: ShardResult }
  | { task: number; embedded: { count: number; embedderId: string; dimensions: number } }
  | { task: number; merged: Bm25DiskHeader; ms: number }
  | { task: number; coded: { code: ErrorCode; problem: string; fix: string } }
  | { task: number; message: string };

/** Papers a worker finishes between two progress messages. */
export const PROGRESS_EVERY = 16;
