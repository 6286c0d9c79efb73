import { join } from 'node:path';
import { CitegeistError } from '../../core/index.js';
import { AppendFile, appendToCopy, PageFile, SequentialReader } from '../common/page-file.js';
import { docIdOfPassage } from '../eval/index.js';
import type { Passage } from '../passages/index.js';
import { type IndexPapers, readIndexPapers } from './index-papers.js';

export const PASSAGE_FILES = {
  /** One passage per line, as shown (without `indexText`). */
  lines: 'passages.jsonl',
  /** Byte offset of each line, and the file's length (float64 LE, passages + 1). */
  offsets: 'passages.off',
  /** First passage number of each document of the manifest, and the passage count (uint32 LE). */
  firsts: 'papers.first',
} as const;

/** Hit ids `PassageTable.idAt` reads from passage lines before it reads the paper list instead. */
const LINE_IDS = 1_000;

/** Values shifted per step when a shard's table is appended. */
const SHIFT_STEP = 65_536;

/** Writes the passage table as passages come, document by document. */
export class PassageTableWriter {
  private readonly lines: AppendFile;
  private readonly offsets: AppendFile;
  private readonly firsts: AppendFile;
  private readonly one = new Float64Array(1);
  private readonly first = new Uint32Array(1);
  count = 0;

  /**
   * A new table in `dir`, or, with `from`, a copy of the table of an earlier generation that the
   * new documents are appended to (the earlier files are not touched: they stay a usable index).
   */
  constructor(dir: string, from?: { dir: string; rows: number; documents: number }) {
    const path = (name: string) => join(dir, name);
    if (from) {
      // The copies lose their closing entries (the end offset, the row count); `close` rewrites them.
      const source = (name: string) => join(from.dir, name);
      this.lines = appendToCopy(source(PASSAGE_FILES.lines), path(PASSAGE_FILES.lines));
      this.offsets = appendToCopy(source(PASSAGE_FILES.offsets), path(PASSAGE_FILES.offsets), from.rows * 8);
      this.firsts = appendToCopy(
        source(PASSAGE_FILES.firsts),
        path(PASSAGE_FILES.firsts),
        from.documents * 4,
      );
      this.count = from.rows;
    } else {
      this.lines = new AppendFile(path(PASSAGE_FILES.lines));
      this.offsets = new AppendFile(path(PASSAGE_FILES.offsets));
      this.firsts = new AppendFile(path(PASSAGE_FILES.firsts));
    }
  }

  /** Starts the next document of the manifest's list. */
  startDocument(): void {
    this.first[0] = this.count;
    this.firsts.writeArray(this.first);
  }

  add(p: Passage): void {
    this.one[0] = this.lines.position;
    this.offsets.writeArray(this.one);
    this.lines.writeString(`${JSON.stringify(p)}\n`);
    this.count++;
  }

  /**
   * Appends the table a shard wrote (`rows` passages of `documents` documents, in `dir`): its lines
   * as they are, its offsets and first passage numbers shifted past what this table holds.
   */
  appendShard(dir: string, rows: number, documents: number): void {
    const base = this.lines.position;
    const lines = join(dir, PASSAGE_FILES.lines);
    const offsets = new SequentialReader(join(dir, PASSAGE_FILES.offsets));
    const firsts = new SequentialReader(join(dir, PASSAGE_FILES.firsts));
    try {
      for (let done = 0; done < rows; done += SHIFT_STEP) {
        const part = offsets.float64(Math.min(SHIFT_STEP, rows - done));
        for (let i = 0; i < part.length; i++) part[i] = (part[i] as number) + base;
        this.offsets.writeArray(part);
      }
      for (let done = 0; done < documents; done += SHIFT_STEP) {
        const part = firsts.uint32(Math.min(SHIFT_STEP, documents - done));
        for (let i = 0; i < part.length; i++) part[i] = (part[i] as number) + this.count;
        this.firsts.writeArray(part);
      }
      // The shard's closing entries (its end offset, its row count) are left unread: ours follow.
      this.lines.appendFile(lines);
    } finally {
      offsets.close();
      firsts.close();
    }
    this.count += rows;
  }

  close(): void {
    this.one[0] = this.lines.position;
    this.offsets.writeArray(this.one);
    this.first[0] = this.count;
    this.firsts.writeArray(this.first);
    this.lines.close();
    this.offsets.close();
    this.firsts.close();
  }

  abandon(): void {
    this.lines.abandon();
    this.offsets.abandon();
    this.firsts.abandon();
  }
}

/**
 * The passages of an index, read by page: `get(id)` reads one line, found through the document's
 * first passage number, so nothing is loaded at open (the paper ids are read at the first lookup).
 * Rows of papers removed or replaced since they were indexed (tombstones) are never returned.
 * A read-only Map of id → passage for the commands that show passages; iterating it streams the
 * whole table (export, RECIPER).
 */
export class PassageTable implements ReadonlyMap<string, Passage> {
  private readonly file: PageFile;
  private readonly offsetFile: PageFile;
  private firstRows: Uint32Array | undefined;
  private docRows: Map<string, number> | undefined;
  private papers: IndexPapers | undefined;
  private dead: Uint8Array | null | undefined;
  /** Passages a query can return (tombstoned rows left out). */
  readonly size: number;
  /** Rows of the table, tombstoned ones included (row numbers run below this). */
  readonly rows: number;
  /** Ids read from their passage lines so far (`idAt`, before the paper list is read). */
  private lineIds = 0;
  /** Rows tombstoned (the manifest's `deadRows`; unknown in older manifests). */
  private readonly deadRows: number | undefined;

  constructor(
    private readonly dir: string,
    /** The manifest's counts (`IndexManifest`). */
    manifest: { passages: number; rows?: number | undefined; deadRows?: number | undefined },
    /** `papers.json` when the caller has read it already (else read at the first lookup). */
    papers?: IndexPapers,
  ) {
    this.papers = papers;
    this.size = manifest.passages;
    this.rows = manifest.rows ?? manifest.passages;
    this.deadRows = manifest.deadRows;
    this.file = new PageFile(join(dir, PASSAGE_FILES.lines));
    this.offsetFile = new PageFile(join(dir, PASSAGE_FILES.offsets));
  }

  /** The paper ids in table order and the tombstoned positions (read once, at the first lookup). */
  private documents(): IndexPapers {
    this.papers ??= readIndexPapers(this.dir);
    return this.papers;
  }

  /**
   * One byte per row, 1 where the row belongs to a paper removed or replaced since it was indexed;
   * null when there is none (the usual case: nothing to filter).
   */
  deadMask(): Uint8Array | null {
    // An index without tombstones says so in its manifest: no paper list is read to filter nothing.
    if (this.dead === undefined && this.deadRows === 0 && this.papers === undefined) this.dead = null;
    if (this.dead === undefined) {
      const { dead } = this.documents();
      if (dead.length === 0) this.dead = null;
      else {
        const firsts = this.firsts();
        this.dead = new Uint8Array(this.rows);
        for (const doc of dead) this.dead.fill(1, firsts[doc] as number, firsts[doc + 1] as number);
      }
    }
    return this.dead;
  }

  /** Number of passages (an array's name for it, for callers that counted an array). */
  get length(): number {
    return this.size;
  }

  /** The passage at row `row` (its number in BM25 and the dense vectors). */
  at(row: number): Passage {
    if (row < 0 || row >= this.rows) {
      throw new CitegeistError(
        'INVALID_ARGUMENT',
        `PassageTable.at: passage ${row} is outside 0..${this.rows - 1}.`,
        'Pass a row number below the table size.',
      );
    }
    const [start, end] = this.offsetFile.float64(row * 8, 2) as unknown as [number, number];
    const line = this.file.read(start, end - start).toString('utf8');
    try {
      return JSON.parse(line) as Passage;
    } catch (error) {
      throw new CitegeistError(
        'INDEX_CORRUPT',
        `Passage ${row} of ${join(this.dir, PASSAGE_FILES.lines)} is not valid JSON.`,
        'Rebuild the index with `citegeist index --rebuild`.',
        { cause: error },
      );
    }
  }

  /**
   * The id of the passage at `row`: for the first `LINE_IDS` hits (a search's few), from the row's
   * own line, a page read, where the paper list would be read whole (1.8 MB at 100,000 papers);
   * after that, or once a lookup by id has read the list, from the documents' first passage
   * numbers by a binary search: ids are `<docId>#<n>` with n its number within the document.
   */
  idAt(row: number): string {
    if (row < 0 || row >= this.rows) return this.at(row).id;
    // A search names a few hits: their lines cost less than the list. A batch names thousands:
    // past `LINE_IDS`, the list is read once and every later id is a binary search.
    if (this.papers === undefined && this.lineIds++ < LINE_IDS) return this.at(row).id;
    const firsts = this.firsts();
    const { ids } = this.documents();
    let lo = 0;
    let hi = ids.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((firsts[mid] as number) <= row) lo = mid;
      else hi = mid - 1;
    }
    return `${ids[lo]}#${row - (firsts[lo] as number)}`;
  }

  /** First passage number of each document, and the passage count (read once, 4 bytes a paper). */
  private firsts(): Uint32Array {
    if (!this.firstRows) {
      const file = new PageFile(join(this.dir, PASSAGE_FILES.firsts));
      try {
        this.firstRows = file.uint32(0, this.documents().ids.length + 1);
      } finally {
        file.close();
      }
    }
    return this.firstRows;
  }

  /**
   * The live position of document `docId` in the paper list (its first passage's row is
   * `firsts[position]`), or undefined when it is not indexed or tombstoned.
   */
  positionOf(docId: string): number | undefined {
    if (!this.docRows) {
      // A replaced paper appears twice; its live (later) position is the one named by its id.
      const { ids, dead } = this.documents();
      const tombstoned = new Set(dead);
      this.docRows = new Map();
      ids.forEach((d, i) => {
        if (!tombstoned.has(i)) this.docRows?.set(d, i);
      });
    }
    return this.docRows.get(docId);
  }

  /** The number of rows (passages) of the document at `position` of the paper list. */
  rowsAt(position: number): number {
    const firsts = this.firsts();
    return (firsts[position + 1] as number) - (firsts[position] as number);
  }

  /** The row of passage `id` (`<docId>#<n>`), or undefined. */
  rowOf(id: string): number | undefined {
    const hash = id.lastIndexOf('#');
    const n = Number(id.slice(hash + 1));
    if (hash < 0 || !Number.isInteger(n) || n < 0) return undefined;
    const doc = this.positionOf(docIdOfPassage(id));
    if (doc === undefined) return undefined;
    const firsts = this.firsts();
    const row = (firsts[doc] as number) + n;
    return row < (firsts[doc + 1] as number) ? row : undefined;
  }

  /** The passage ids of document `docId` in order, or undefined when it is not indexed. */
  passagesOfPaper(docId: string): string[] | undefined {
    const first = this.rowOf(`${docId}#0`);
    if (first === undefined) return this.docRows?.has(docId) ? [] : undefined;
    const doc = this.docRows?.get(docId) as number;
    const count = (this.firstRows?.[doc + 1] as number) - first;
    return Array.from({ length: count }, (_, n) => `${docId}#${n}`);
  }

  /** Whether `id` names a passage of the index (without reading it). */
  hasPassage(id: string): boolean {
    return this.rowOf(id) !== undefined;
  }

  get(id: string): Passage | undefined {
    const row = this.rowOf(id);
    if (row === undefined) return undefined;
    const p = this.at(row);
    return p.id === id ? p : undefined;
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  *values(): MapIterator<Passage> {
    const dead = this.deadMask();
    const reader = new SequentialReader(join(this.dir, PASSAGE_FILES.lines));
    try {
      let row = 0;
      for (let line = reader.line(); line !== null && line !== ''; line = reader.line(), row++)
        if (!dead?.[row]) yield JSON.parse(line) as Passage;
    } finally {
      reader.close();
    }
  }

  *keys(): MapIterator<string> {
    for (const p of this.values()) yield p.id;
  }

  *entries(): MapIterator<[string, Passage]> {
    for (const p of this.values()) yield [p.id, p];
  }

  [Symbol.iterator](): MapIterator<[string, Passage]> {
    return this.entries();
  }

  forEach(fn: (value: Passage, key: string, map: ReadonlyMap<string, Passage>) => void): void {
    for (const p of this.values()) fn(p, p.id, this);
  }

  /** Every passage in an array (for callers that need them all at once). */
  toArray(): Passage[] {
    return [...this.values()];
  }

  close(): void {
    this.file.close();
    this.offsetFile.close();
  }
}
