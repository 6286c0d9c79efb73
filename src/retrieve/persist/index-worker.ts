/**
 * Worker-thread entry of a parallel index build (`shard-pool.ts`): builds one shard of the index
 * from the corpus file, embeds one shard's passages with a fitted model, or merges the shards'
 * BM25 segments (while the dense pass runs on the other threads), and posts back what it
 * wrote (a coded error as its code, problem and fix, so the build fails with the same error it
 * would give on one thread).
 */
import { parentPort } from 'node:worker_threads';
import { isCitegeistError } from '../../core/index.js';
import { CorpusStore } from '../../store/index.js';
import { DenseFileWriter } from '../dense/index.js';
import { mergeBm25Segments } from '../lexical/index.js';
import { embedShards } from './embed-shards.js';
import { buildShard } from './index-shard.js';
import type { IndexWorkerRequest, IndexWorkerResponse } from './index-worker-protocol.js';
import { PROGRESS_EVERY } from './index-worker-protocol.js';
import { embedderWithModel } from './restore-embedder.js';

let corpus: { path: string; store: CorpusStore } | null = null;

function openCorpus(path: string): CorpusStore {
  if (corpus?.path !== path) {
    corpus?.store.close();
    corpus = { path, store: CorpusStore.open(path, { readonly: true }) };
  }
  return corpus.store;
}

async function handle(
  request: IndexWorkerRequest,
  progress: (papers: number) => void,
): Promise<IndexWorkerResponse> {
  let papers = 0;
  const onPaper = () => {
    if (++papers % PROGRESS_EVERY === 0) progress(PROGRESS_EVERY);
  };
  const flushProgress = () => {
    if (papers % PROGRESS_EVERY) progress(papers % PROGRESS_EVERY);
  };
  if (request.kind === 'shard') {
    const store = openCorpus(request.corpusPath);
    const documents = function* () {
      for (const id of request.ids) yield store.get(id);
    };
    const shard = buildShard(request.dir, documents(), request.settings, onPaper);
    flushProgress();
    return { task: request.task, shard };
  }
  if (request.kind === 'merge') {
    const { partDir, writers, analyzer, params } = request;
    const started = performance.now();
    const merged = mergeBm25Segments(partDir, writers, analyzer, params);
    return { task: request.task, merged, ms: Math.round(performance.now() - started) };
  }
  const embedder = embedderWithModel(request.spec, request.model);
  const dense = new DenseFileWriter(request.dir);
  try {
    await embedShards([request], embedder, dense, request.batchSize, onPaper);
    dense.close(embedder.id, embedder.dimensions);
  } catch (error) {
    dense.abandon();
    throw error;
  }
  flushProgress();
  return {
    task: request.task,
    embedded: { count: dense.count, embedderId: embedder.id, dimensions: embedder.dimensions },
  };
}

parentPort?.on('message', async (request: IndexWorkerRequest) => {
  let response: IndexWorkerResponse;
  try {
    response = await handle(request, (papers) => parentPort?.postMessage({ task: request.task, papers }));
  } catch (error) {
    response = isCitegeistError(error)
      ? { task: request.task, coded: { code: error.code, problem: error.problem, fix: error.fix } }
      : {
          task: request.task,
          message: error instanceof Error ? (error.stack ?? error.message) : String(error),
        };
  }
  parentPort?.postMessage(response);
});
