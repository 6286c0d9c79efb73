import { join } from 'node:path';
import { CitegeistError } from '../../core/index.js';
import { AppendFile, PageFile, SequentialReader } from '../common/page-file.js';
import { docIdOfPassage } from '../eval/index.js';
import type { Passage } from '../passages/index.js';

export const PASSAGE_FILES = {
  /** One passage per line, as shown (without `indexText`). */
  lines: 'passages.jsonl',
  /** Byte offset of each line, and the file's length (float64 LE, passages + 1). */
  offsets: 'passages.off',
  /** First passage number of each document of the manifest, and the passage count (uint32 LE). */
  firsts: 'papers.first',
} as const;

/** Writes the passage table as passages come, document by document. */
export class PassageTableWriter {
  private readonly lines: AppendFile;
  private readonly offsets: AppendFile;
  private readonly firsts: AppendFile;
  private readonly one = new Float64Array(1);
  private readonly first = new Uint32Array(1);
  count = 0;

  constructor(dir: string) {
    this.lines = new AppendFile(join(dir, PASSAGE_FILES.lines));
    this.offsets = new AppendFile(join(dir, PASSAGE_FILES.offsets));
    this.firsts = new AppendFile(join(dir, PASSAGE_FILES.firsts));
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
 * first passage number, so nothing is loaded at open. A read-only Map of id → passage for the
 * commands that show passages; iterating it streams the whole table (export, RECIPER).
 */
export class PassageTable implements ReadonlyMap<string, Passage> {
  private readonly file: PageFile;
  private readonly offsetFile: PageFile;
  private firstRows: Uint32Array | undefined;
  private docRows: Map<string, number> | undefined;

  constructor(
    private readonly dir: string,
    /** Document ids in index order (the manifest's `documents`). */
    private readonly documents: readonly string[],
    readonly size: number,
  ) {
    this.file = new PageFile(join(dir, PASSAGE_FILES.lines));
    this.offsetFile = new PageFile(join(dir, PASSAGE_FILES.offsets));
  }

  /** Number of passages (an array's name for it, for callers that counted an array). */
  get length(): number {
    return this.size;
  }

  /** The passage at row `row` (its number in BM25 and the dense vectors). */
  at(row: number): Passage {
    if (row < 0 || row >= this.size) {
      throw new CitegeistError(
        'INVALID_ARGUMENT',
        `PassageTable.at: passage ${row} is outside 0..${this.size - 1}.`,
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

  /** The id of the passage at `row`. */
  idAt(row: number): string {
    return this.at(row).id;
  }

  /** The row of passage `id` (`<docId>#<n>`), or undefined. */
  rowOf(id: string): number | undefined {
    const hash = id.lastIndexOf('#');
    const n = Number(id.slice(hash + 1));
    if (hash < 0 || !Number.isInteger(n) || n < 0) return undefined;
    this.docRows ??= new Map(this.documents.map((d, i) => [d, i]));
    this.firstRows ??= new PageFile(join(this.dir, PASSAGE_FILES.firsts)).uint32(
      0,
      this.documents.length + 1,
    );
    const doc = this.docRows.get(docIdOfPassage(id));
    if (doc === undefined) return undefined;
    const row = (this.firstRows[doc] as number) + n;
    return row < (this.firstRows[doc + 1] as number) ? row : undefined;
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
    const reader = new SequentialReader(join(this.dir, PASSAGE_FILES.lines));
    try {
      for (let line = reader.line(); line !== null && line !== ''; line = reader.line())
        yield JSON.parse(line) as Passage;
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
