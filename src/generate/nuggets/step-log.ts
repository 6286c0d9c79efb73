/**
 * What the steps of a nugget command (generate, score-quality, ginger) have finished, kept in one
 * run file per command and output folder, `<out>/.state/<command>.jsonl`: the run's manifest first
 * (how the folder's outputs are made; `docs/runs.md`), then one line per finished unit (a document,
 * a pair, a cluster, a nugget) tagged with its step, appended as each completes. A killed run
 * resumes at the first unit not logged; a unit whose model call failed is not logged, so a rerun
 * retries it; a run with other settings or inputs stops with RUN_MANIFEST_MISMATCH listing what
 * differs. The file's lock is the folder's: while one process writes the folder, another refuses
 * (LOCK_HELD). `<out>/<command>.meta.json` is the same manifest for readers, and backs the check
 * when the state was deleted: the folder's outputs were made by the run it names.
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  CitegeistError,
  manifestDifferences,
  parseManifest,
  type RunManifest,
  sha256Hex,
} from '../../core/index.js';
import {
  inspectRunFile,
  RunFile,
  type RunFileOptions,
  readJsonFile,
  removeAtomicLeftovers,
  writeFileAtomic,
} from '../../io/index.js';
import { bankFilesIn } from './result-folder.js';

/** One unit as logged: its id (over step and key), the step, the record. */
interface LoggedUnit {
  unit: string;
  step: string;
  record: object;
}

export interface StepStateOptions {
  /** The output folder. */
  dir: string;
  /** The command's name: `.state/<name>.jsonl`, `<name>.meta.json`. */
  name: string;
  manifest: RunManifest;
  /** Recorded in the lock, e.g. "citegeist nuggets generate". */
  command: string;
  /**
   * True when the folder's bank files are this command's own outputs (generate, ginger): a folder
   * that holds banks but no state of this command was written by something else, and is refused
   * rather than overwritten (RUN_FILE_FOREIGN). False where the banks are the inputs (score-quality
   * rewriting banks in place).
   */
  ownsBanks: boolean;
}

export class StepState {
  private readonly byStep = new Map<string, LoggedUnit[]>();

  private constructor(
    /** The run's manifest: the file's when resuming (its `created_at` is the first run's). */
    readonly manifest: RunManifest,
    rows: readonly Record<string, unknown>[],
    private readonly file: RunFile | null,
  ) {
    for (const row of rows) {
      const unit = row as unknown as LoggedUnit;
      this.byStep.set(unit.step, [...(this.byStep.get(unit.step) ?? []), unit]);
    }
  }

  /** Opens the folder's state for writing: takes the lock, checks the manifest, writes the meta file. */
  static open(options: StepStateOptions): StepState {
    const manifest = checkFolder(options);
    mkdirSync(join(options.dir, '.state'), { recursive: true });
    const file = RunFile.open(statePath(options), runFileOptions({ ...options, manifest }));
    try {
      removeOutputLeftovers(options.dir);
      writeFileAtomic(metaPath(options), `${JSON.stringify(file.manifest, null, 2)}\n`);
      return new StepState(file.manifest, file.kept, file);
    } catch (error) {
      file.close();
      throw error;
    }
  }

  /** The same checks, read-only (`--dry-run`): what a run would keep; nothing is written or locked. */
  static inspect(options: StepStateOptions): StepState {
    const manifest = checkFolder(options);
    const state = inspectRunFile(statePath(options), runFileOptions(options));
    return new StepState(state.manifest ?? manifest, state.kept, null);
  }

  /** Stale locks of killed runs taken over on the way in, for a notice. */
  get tookOverFrom(): { pid: number; command: string; started_at: string }[] {
    return this.file?.tookOverFrom ?? [];
  }

  /** The log of one step; `keyOf` names a unit by its content (request, texts). */
  log<T extends object>(step: string, keyOf: (record: T) => string): StepLog<T> {
    const records = (this.byStep.get(step) ?? []).map((u) => u.record as T);
    const file = this.file;
    return new StepLog(
      keyOf,
      file ? (key, record) => file.append({ unit: unitId(step, key), step, record }) : undefined,
      records,
    );
  }

  close(): void {
    this.file?.close();
  }
}

/** The finished units of one step, by key; `put` logs a unit as it completes. */
export class StepLog<T extends object> {
  private readonly records = new Map<string, T>();

  constructor(
    private readonly keyOf: (record: T) => string,
    private readonly sink?: (key: string, record: T) => void,
    records: readonly T[] = [],
  ) {
    for (const record of records) this.records.set(keyOf(record), record);
  }

  get size(): number {
    return this.records.size;
  }

  get(key: string): T | undefined {
    return this.records.get(key);
  }

  /** Every record, in the order logged. */
  entries(): T[] {
    return [...this.records.values()];
  }

  /** Logs a finished unit; a unit already logged keeps its first record (the file holds each once). */
  put(record: T): void {
    const key = this.keyOf(record);
    if (this.records.has(key)) return;
    this.records.set(key, record);
    this.sink?.(key, record);
  }
}

/** A unit key from its parts (NUL never occurs in the texts). */
export const stepKey = (...parts: string[]): string => parts.join('\u0000');

/** A unit's id in the state file: short, and unique over step and key. */
const unitId = (step: string, key: string): string => sha256Hex(`${step}\u0000${key}`).slice(0, 24);

const statePath = (o: StepStateOptions) => join(o.dir, '.state', `${o.name}.jsonl`);
const metaPath = (o: StepStateOptions) => join(o.dir, `${o.name}.meta.json`);

function runFileOptions(o: StepStateOptions): RunFileOptions {
  return { manifest: o.manifest, idField: 'unit', what: `${o.name} state file`, command: o.command };
}

/**
 * Before a state file exists: the folder's meta file (when the state was deleted) must name this
 * run, and a folder of banks this command did not write is not taken over. Returns the manifest to
 * start the state with: the recorded one when there is one (its first-run date keeps the banks'
 * bytes), else the command's.
 */
function checkFolder(o: StepStateOptions): RunManifest {
  if (existsSync(statePath(o))) return o.manifest;
  if (existsSync(metaPath(o))) {
    const recorded = parseManifest(readJsonFile(metaPath(o), 'run manifest', { output: true }), metaPath(o));
    const differences = manifestDifferences(recorded, o.manifest);
    if (differences.length > 0) {
      throw new CitegeistError(
        'RUN_MANIFEST_MISMATCH',
        `${o.dir} holds the outputs of the run "${recorded.label}" (${metaPath(o)}) made with other settings or inputs, so this one cannot write there:\n    ${differences.join('\n    ')}`,
        'Write to a new folder (another --out), or run with the settings and inputs recorded in the folder.',
      );
    }
    return recorded;
  }
  if (!o.ownsBanks) return o.manifest;
  const banks = bankFilesIn(o.dir);
  if (banks.length > 0) {
    throw new CitegeistError(
      'RUN_FILE_FOREIGN',
      `${o.dir} already holds ${banks.length} nugget file(s) (e.g. ${banks[0]}) and no record of a \`${o.command}\` run that wrote them; writing there could replace them.`,
      'Write to a new folder (another --out), or move those files away.',
    );
  }
  return o.manifest;
}

/**
 * The temporary files of bank, judgment and meta writes a killed run left in the folder and its
 * subfolders (judgments/, potentially_unanswerable/): removed once this run holds the folder's lock.
 */
function removeOutputLeftovers(dir: string): void {
  const isOutput = (target: string) => /\.json(\.gz)?$/i.test(target);
  removeAtomicLeftovers(dir, isOutput);
  for (const entry of readdirSync(dir, { withFileTypes: true }))
    if (entry.isDirectory() && entry.name !== '.state')
      removeAtomicLeftovers(join(dir, entry.name), isOutput);
}
