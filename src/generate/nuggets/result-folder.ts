/**
 * The output folder of a one-shot nugget command (`select`, `convert --to v3`): it holds one result
 * of that command, described by `<dir>/<name>.meta.json` (how it was made, and the `files` written).
 * A folder holding nugget files the command did not write (another command's banks, released
 * banks, files added by hand) is refused with RUN_FILE_FOREIGN rather than written into; the files
 * of the command's previous result are replaced, and those this result does not rewrite removed, so
 * the folder never mixes two results. The meta file's lock keeps a second process out meanwhile.
 */
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { CitegeistError } from '../../core/index.js';
import { FileLock, readJsonFile, writeFileAtomic } from '../../io/index.js';

/** The nugget bank files directly in a folder: `*.json`, `*.json.gz`, not meta or hidden files. */
export function bankFilesIn(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter(
      (e) =>
        e.isFile() &&
        /\.json(\.gz)?$/i.test(e.name) &&
        !e.name.endsWith('.meta.json') &&
        !e.name.startsWith('.'),
    )
    .map((e) => e.name)
    .sort();
}

export class ResultFolder {
  private constructor(
    private readonly dir: string,
    private readonly metaPath: string,
    /** The files of the previous result, which this one may replace. */
    private readonly previous: readonly string[],
    private readonly lock: FileLock,
  ) {}

  /** Takes the folder for a result of `name` (creating it); refuses a folder with foreign banks. */
  static open(dir: string, name: string, command: string): ResultFolder {
    mkdirSync(dir, { recursive: true });
    const metaPath = join(dir, `${name}.meta.json`);
    const lock = FileLock.acquire(metaPath, command);
    try {
      const previous = existsSync(metaPath) ? recordedFiles(metaPath) : [];
      const foreign = bankFilesIn(dir).filter((f) => !previous.includes(f));
      if (foreign.length > 0) {
        throw new CitegeistError(
          'RUN_FILE_FOREIGN',
          `${dir} already holds ${foreign.length} nugget file(s) that \`${command}\` did not write (e.g. ${foreign[0]}); writing there could replace them or mix them with this result.`,
          'Write to a new folder (another --out), or move those files away.',
        );
      }
      return new ResultFolder(dir, metaPath, previous, lock);
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  /**
   * Records the files about to be written (with the previous result's, so a run killed midway
   * leaves no file the folder's meta does not name); call before writing them.
   */
  begin(files: readonly string[]): void {
    this.writeMeta({ complete: false }, [...new Set([...this.previous, ...files])].sort());
  }

  /** Writes the result's meta (`files`: the files written) and removes the previous result's others. */
  finish(meta: Record<string, unknown>, files: readonly string[]): void {
    this.writeMeta(meta, files);
    for (const f of this.previous) if (!files.includes(f)) rmSync(join(this.dir, f), { force: true });
  }

  close(): void {
    this.lock.release();
  }

  private writeMeta(meta: Record<string, unknown>, files: readonly string[]): void {
    this.lock.assertHeld();
    writeFileAtomic(this.metaPath, `${JSON.stringify({ ...meta, files }, null, 2)}\n`);
  }
}

/** The `files` a previous result's meta names; a meta without them names none. */
function recordedFiles(metaPath: string): string[] {
  const meta = readJsonFile(metaPath, 'result meta file', { output: true }) as { files?: unknown };
  return Array.isArray(meta?.files) ? meta.files.filter((f): f is string => typeof f === 'string') : [];
}
