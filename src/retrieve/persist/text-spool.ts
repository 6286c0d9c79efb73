import { join } from 'node:path';
import { AppendFile, PageFile, SequentialReader } from '../common/page-file.js';

/**
 * The texts a shard of an index build indexed (each passage's `indexText ?? text`), kept on disk
 * until the dense side is built: the embedder is fitted on a sample of them and embeds them all,
 * without the corpus being read and cut into passages a second time. Removed with the shard.
 */
const SPOOL_FILES = { texts: 'texts.spool', offsets: 'texts.off' } as const;

export class TextSpoolWriter {
  private readonly texts: AppendFile;
  private readonly offsets: AppendFile;
  private readonly one = new Float64Array(1);

  constructor(dir: string) {
    this.texts = new AppendFile(join(dir, SPOOL_FILES.texts));
    this.offsets = new AppendFile(join(dir, SPOOL_FILES.offsets));
  }

  add(text: string): void {
    this.one[0] = this.texts.position;
    this.offsets.writeArray(this.one);
    this.texts.writeString(text);
  }

  close(): void {
    this.one[0] = this.texts.position;
    this.offsets.writeArray(this.one);
    this.texts.close();
    this.offsets.close();
  }

  abandon(): void {
    this.texts.abandon();
    this.offsets.abandon();
  }
}

/** The `rows` texts of a shard's spool, in order, read forward in chunks. */
export function* spooledTexts(dir: string, rows: number): Generator<string> {
  const offsets = new SequentialReader(join(dir, SPOOL_FILES.offsets));
  const texts = new PageFile(join(dir, SPOOL_FILES.texts));
  try {
    const step = 16_384;
    let start = rows > 0 ? (offsets.float64(1)[0] as number) : 0;
    for (let row = 0; row < rows; row += step) {
      const ends = offsets.float64(Math.min(step, rows - row));
      const bytes = texts.read(start, (ends[ends.length - 1] as number) - start);
      let at = 0;
      for (const end of ends) {
        const next = end - start;
        yield bytes.toString('utf8', at, next);
        at = next;
      }
      start = ends[ends.length - 1] as number;
    }
  } finally {
    offsets.close();
    texts.close();
  }
}

/** The texts at `rows` (ascending) of a shard's spool. */
export function spooledTextsAt(dir: string, rows: readonly number[]): string[] {
  const offsets = new PageFile(join(dir, SPOOL_FILES.offsets));
  const texts = new PageFile(join(dir, SPOOL_FILES.texts));
  try {
    return rows.map((row) => {
      const [start, end] = offsets.float64(row * 8, 2) as unknown as [number, number];
      return texts.read(start, end - start).toString('utf8');
    });
  } finally {
    offsets.close();
    texts.close();
  }
}
