import { join } from 'node:path';
import type { Embedder } from '../../llm/index.js';
import { SequentialReader } from '../common/page-file.js';
import type { DenseFileWriter } from '../dense/index.js';
import { PASSAGE_FILES } from './passage-table.js';
import { spooledTexts } from './text-spool.js';

/** A shard as the dense side reads it: its folder, passages and papers (`ShardResult`). */
export interface SpooledShard {
  dir: string;
  passages: number;
  papers: number;
}

/**
 * Embeds the spooled texts of `shards`, in order, in batches of `batchSize` that run across shard
 * boundaries (the batches one pass over every passage makes), appending the vectors to `dense`.
 * `onPaper` is called once a paper's passages are all queued.
 */
export async function embedShards(
  shards: readonly SpooledShard[],
  embedder: Embedder,
  dense: DenseFileWriter,
  batchSize: number,
  onPaper?: () => void,
): Promise<void> {
  let batch: string[] = [];
  const flush = async () => {
    if (batch.length) dense.add(await embedder.embed(batch, 'passage'));
    batch = [];
  };
  for (const shard of shards) {
    const firsts = readFirsts(shard);
    let paper = 0;
    let row = 0;
    for (const text of spooledTexts(shard.dir, shard.passages)) {
      while (paper < shard.papers && (firsts[paper + 1] as number) <= row) {
        paper++;
        onPaper?.();
      }
      batch.push(text);
      row++;
      if (batch.length >= batchSize) await flush();
    }
    for (; paper < shard.papers; paper++) onPaper?.();
  }
  await flush();
}

/** The shard's first passage number of each paper, and its passage count. */
function readFirsts(shard: SpooledShard): Uint32Array {
  const reader = new SequentialReader(join(shard.dir, PASSAGE_FILES.firsts));
  try {
    return reader.uint32(shard.papers + 1);
  } finally {
    reader.close();
  }
}
