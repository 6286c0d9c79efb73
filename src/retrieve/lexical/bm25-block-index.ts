import { CitegeistError } from '../../core/index.js';
import { AppendFile, PageFile } from '../common/page-file.js';
import { compareTerms, type DictBlock } from './bm25-disk-format.js';

/**
 * `bm25.blocks`, the term dictionary's block index in binary, searched by page reads: a lookup
 * reads the first terms its binary search probes (about log2(blocks) of them, the upper levels
 * cached for later lookups) and the block's byte range, never the whole index. At 50× the JSON
 * block index it replaces was ~40,000 entries parsed whole at the first query.
 *
 * Layout, for `count` blocks (the count is in `bm25.json`): float64 LE byte offsets of the blocks
 * in `bm25.dict` and the end of the last one (count + 1); uint32 LE byte offsets of each block's
 * first term in the term bytes and their end (count + 1); the first terms, UTF-8, back to back.
 */
export function writeBlockIndex(path: string, blocks: readonly DictBlock[]): void {
  const n = blocks.length;
  const offsets = new Float64Array(n + 1);
  const termAt = new Uint32Array(n + 1);
  const terms = blocks.map(([first]) => Buffer.from(first, 'utf8'));
  let bytes = 0;
  blocks.forEach(([, offset], i) => {
    offsets[i] = offset;
    termAt[i] = bytes;
    bytes += terms[i]!.length;
  });
  const last = blocks[n - 1];
  offsets[n] = last ? last[1] + last[2] : 0;
  termAt[n] = bytes;
  const out = new AppendFile(path);
  try {
    out.writeArray(offsets);
    out.writeArray(termAt);
    for (const t of terms) out.write(t);
    out.close();
  } catch (error) {
    out.abandon();
    throw error;
  }
}

/** Probed first terms kept per block index (the top levels of every binary search). */
const PROBE_CACHE = 4096;

/** Reads `bm25.blocks` by pages (see `writeBlockIndex`). */
export class BlockIndex {
  private readonly file: PageFile;
  private readonly termBase: number;
  private readonly firsts = new Map<number, string>();

  constructor(
    path: string,
    readonly count: number,
  ) {
    this.file = new PageFile(path);
    this.termBase = (count + 1) * 12;
    if (this.file.size < this.termBase) {
      throw new CitegeistError(
        'INDEX_CORRUPT',
        `${path} holds ${this.file.size} bytes; a block index of ${count} blocks needs at least ${this.termBase}.`,
        'Rebuild the index with `citegeist index --rebuild`.',
      );
    }
  }

  /** The first term of block `i`. */
  private first(i: number): string {
    let term = this.firsts.get(i);
    if (term === undefined) {
      const [from, to] = this.file.uint32((this.count + 1) * 8 + i * 4, 2) as unknown as [number, number];
      term = this.file.read(this.termBase + from, to - from).toString('utf8');
      if (this.firsts.size >= PROBE_CACHE) this.firsts.clear();
      this.firsts.set(i, term);
    }
    return term;
  }

  /** The byte range in `bm25.dict` of the block that would hold `term`, or undefined (before the first). */
  find(term: string): { offset: number; length: number } | undefined {
    let lo = 0;
    let hi = this.count - 1;
    let at = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (compareTerms(this.first(mid), term) <= 0) {
        at = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (at < 0) return undefined;
    const [start, end] = this.file.float64(at * 8, 2) as unknown as [number, number];
    return { offset: start, length: end - start };
  }

  close(): void {
    this.file.close();
  }
}
