import type { Document } from '../../core/index.js';
import {
  type Bm25Segments,
  Bm25SegmentWriter,
  DEFAULT_ANALYZER,
  SEGMENT_POSTINGS,
} from '../lexical/index.js';
import { chunkDocument, type Passage } from '../passages/index.js';
import { PassageTableWriter } from './passage-table.js';
import { TextSpoolWriter } from './text-spool.js';

/** How a shard's documents are cut and analysed (the same for every shard of a build). */
export interface ShardSettings {
  maxTokens: number;
  includeReferences: boolean;
  /** Postings per BM25 segment (default `SEGMENT_POSTINGS`; tests make it small). */
  segmentPostings?: number | undefined;
  /** Keep each passage's indexed text for the dense side (`text-spool.ts`). */
  spool: boolean;
}

/** What a shard left in its folder: a passage table, BM25 segments and, with `spool`, its texts. */
export interface ShardResult {
  dir: string;
  /** Positions (in the shard's list of papers) of the ones indexed: a paper gone from the corpus is skipped. */
  indexed: number[];
  passages: number;
  bm25: Bm25Segments;
}

/**
 * Indexes a run of consecutive papers into `dir`: cuts each into passages, writes them to a
 * passage table, analyses them into BM25 segments and, for the dense side, spools the text each
 * is indexed by. Shards are joined in order afterwards (`assembleShards`), so an index built by
 * shards on several threads is the index one shard over every paper gives, byte for byte.
 * `documents` yields each paper of the run in order, or null when it is no longer in the corpus.
 */
export function buildShard(
  dir: string,
  documents: Iterable<Document | null | undefined>,
  settings: ShardSettings,
  onPaper?: () => void,
): ShardResult {
  const table = new PassageTableWriter(dir);
  const bm25 = new Bm25SegmentWriter(dir, DEFAULT_ANALYZER, settings.segmentPostings ?? SEGMENT_POSTINGS);
  const spool = settings.spool ? new TextSpoolWriter(dir) : null;
  const cut = { maxTokens: settings.maxTokens, includeReferences: settings.includeReferences };
  const indexed: number[] = [];
  let position = 0;
  try {
    for (const document of documents) {
      if (document) {
        indexed.push(position);
        table.startDocument();
        for (const p of chunkDocument(document, cut)) {
          const { indexText, ...shown } = p;
          const text = indexText ?? p.text;
          table.add(shown as Passage);
          bm25.add(text);
          spool?.add(text);
        }
      }
      position++;
      onPaper?.();
    }
    table.close();
    spool?.close();
    return { dir, indexed, passages: table.count, bm25: bm25.finishSegments() };
  } catch (error) {
    table.abandon();
    bm25.abandon();
    spool?.abandon();
    throw error;
  }
}
