import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { CitegeistError, type DatasetRow, type Document } from '../../core/index.js';
import { loadDatasetStrict, readMaybeGzip, readRun } from '../../formats/index.js';
import { parseJsonl, readJsonFile, readTextFile } from '../../io/index.js';
import { openCorpus, paperSource } from '../../store/index.js';
import type { GradesSource, RunSource } from '../answer-join.js';
import type { FaithfulnessSource } from '../faithfulness-section.js';
import { type BankNuggets, bankNuggets } from '../judgments-section.js';
import { type LooseGrade, looseGradeRow } from '../loose-grade-row.js';
import { type ManifestInfo, manifestOf, type SplitRecords, splitRecords } from '../loose-records.js';
import type { InputInfo } from '../report-data.js';

/** What reading the inputs of a report gives: the sources, their provenance, and the notes. */
export interface ReportSources {
  inputs: InputInfo[];
  notes: string[];
  /** Every file or folder read, as absolute paths (for the recipe `serve` checks). */
  read: string[];
}

/** Reads files relative to `cwd`, names them as given, and records provenance and problems. */
export class ReportReader {
  readonly sources: ReportSources = { inputs: [], notes: [], read: [] };

  constructor(private readonly cwd: string) {}

  private text(path: string, kind: InputInfo['kind']): { abs: string; text: string; sha256: string } {
    const abs = this.resolve(path);
    const text = readTextFile(abs, `${kind} file`);
    this.sources.read.push(abs);
    return { abs, text, sha256: createHash('sha256').update(text, 'utf8').digest('hex') };
  }

  resolve(path: string): string {
    return resolve(this.cwd, path);
  }

  private record(
    kind: InputInfo['kind'],
    name: string,
    sha256: string | null,
    split: SplitRecords,
    rows: number,
  ) {
    const m = split.manifest;
    this.sources.inputs.push({
      kind,
      name,
      sha256,
      rows,
      skipped: split.skipped.length,
      label: m?.label ?? null,
      settings: m?.settings ?? null,
      version: m?.version ?? null,
    });
    for (const s of split.skipped.slice(0, 3))
      this.sources.notes.push(`${name} line ${s.line} skipped: ${s.reason}.`);
    if (split.skipped.length > 3)
      this.sources.notes.push(`${name}: ${split.skipped.length - 3} more line(s) skipped.`);
  }

  /** A JSONL file's records with its manifest split off (a JSON summary file is refused by name). */
  private records(
    path: string,
    kind: InputInfo['kind'],
  ): { split: SplitRecords; sha256: string; abs: string; text: string } {
    const { abs, text, sha256 } = this.text(path, kind);
    const split = splitRecords(parseJsonl(text));
    return { split, sha256, abs, text };
  }

  grades(path: string): GradesSource {
    const { split, sha256, text } = this.records(path, 'grades');
    refuseCutShort(path, text);
    const rows: LooseGrade[] = [];
    for (const { line, value } of split.rows) {
      const g = looseGradeRow(value);
      if (typeof g === 'string') split.skipped.push({ line, reason: g });
      else rows.push(g);
    }
    if (rows.length === 0) {
      throw new CitegeistError(
        'NO_ROWS',
        `The grades file ${path} holds no grades rows${split.manifest ? ' (only its manifest: nothing was graded yet)' : ''}.`,
        /\.json$/i.test(path)
          ? 'A summary file holds no rows: give the .jsonl grades written by `citegeist grade`.'
          : 'Give the grades JSONL of a finished `citegeist grade` (run it again with the same --out to finish it).',
      );
    }
    this.record('grades', path, sha256, split, rows.length);
    return { name: path, manifest: split.manifest, rows };
  }

  run(path: string): RunSource {
    const abs = this.resolve(path);
    const read = readRun(abs); // the file read once: rows, manifest and the hash of its bytes
    this.sources.read.push(abs);
    const manifest: ManifestInfo | null = manifestOf(read.manifest);
    // A manifest line is not a run row: older readers report it as one, the report does not.
    const errors = read.errors.filter((e) => !(manifest && /line 1$/.test(e.where)));
    const split: SplitRecords = {
      manifest,
      rows: [],
      skipped: errors.map((e) => ({ line: Number(/line (\d+)/.exec(e.where)?.[1] ?? 0), reason: e.message })),
    };
    this.record('run', path, read.sha256, split, read.rows.length);
    return { name: path, manifest, rows: read.rows };
  }

  async dataset(path: string): Promise<DatasetRow[]> {
    const abs = this.resolve(path);
    const read = await loadDatasetStrict(abs);
    this.sources.read.push(abs);
    for (const w of read.warnings) this.sources.notes.push(`${path}: ${w}`);
    this.record('dataset', path, read.sha256, { manifest: null, rows: [], skipped: [] }, read.rows.length);
    return read.rows;
  }

  faithfulness(path: string): FaithfulnessSource {
    const { split, sha256, abs } = this.records(path, 'faithfulness');
    const metaPath = `${abs}.meta.json`;
    let meta: Record<string, unknown> | null = null;
    if (existsSync(metaPath)) {
      try {
        meta = readJsonFile(metaPath, 'settings file') as Record<string, unknown>;
        this.sources.read.push(metaPath);
      } catch (error) {
        this.sources.notes.push(`${path}.meta.json is not JSON (${(error as Error).message}); ignored.`);
      }
    }
    this.record('faithfulness', path, sha256, split, split.rows.length);
    return { name: path, manifest: split.manifest, meta, rows: split.rows.map((r) => r.value) };
  }

  judgments(path: string): Record<string, unknown>[] {
    const { split, sha256 } = this.records(path, 'judgments');
    this.record('judgments', path, sha256, split, split.rows.length);
    return split.rows.map((r) => r.value);
  }

  /** Nugget banks: a folder of v3 or v1 JSON files (`.json`, `.json.gz`), or one such file. */
  nuggets(path: string): BankNuggets[] {
    const abs = this.resolve(path);
    const files = statSync(abs).isDirectory()
      ? readdirSync(abs)
          .filter((n) => /\.json(\.gz)?$/i.test(n) && !n.startsWith('.'))
          .sort()
          .map((n) => join(abs, n))
      : [abs];
    this.sources.read.push(abs);
    const banks: BankNuggets[] = [];
    const skipped: SplitRecords['skipped'] = [];
    for (const file of files) {
      const name = relative(this.resolve('.'), file) || basename(file);
      try {
        const bank = bankNuggets(JSON.parse(readMaybeGzip(file, 'nugget bank')));
        if (bank) banks.push(bank);
        else skipped.push({ line: 0, reason: `${name} is not a v3 or v1 nugget bank` });
      } catch (error) {
        skipped.push({ line: 0, reason: `${name}: ${(error as Error).message}` });
      }
    }
    for (const s of skipped) this.sources.notes.push(`nuggets: ${s.reason}.`);
    this.record('nuggets', path, null, { manifest: null, rows: [], skipped: [] }, banks.length);
    return banks;
  }

  /** The papers by id, from a corpus file or a papers folder (missing ids are simply absent). */
  async papers(
    ids: Iterable<string>,
    source: { corpus?: string; papers?: string },
  ): Promise<Map<string, Document>> {
    const out = new Map<string, Document>();
    const wanted = [...new Set(ids)].filter(Boolean);
    if (source.corpus) {
      const abs = this.resolve(source.corpus);
      const store = openCorpus(abs);
      try {
        for (const id of wanted) {
          const doc = store.get(id);
          if (doc) out.set(id, doc);
        }
      } finally {
        store.close();
      }
      this.sources.read.push(abs);
      this.record('corpus', source.corpus, null, { manifest: null, rows: [], skipped: [] }, out.size);
    } else if (source.papers) {
      const load = paperSource({ papers: source.papers }, this.cwd);
      for (const id of wanted) {
        const doc = await load(id);
        if (doc) out.set(id, doc);
      }
      this.sources.read.push(this.resolve(source.papers));
      this.record('papers', source.papers, null, { manifest: null, rows: [], skipped: [] }, out.size);
    }
    return out;
  }
}

/**
 * A grades file whose last line is cut short (no newline, not JSON) was truncated or its grading
 * killed: showing the rest as the grading would hide that. `grade` with the same --out repairs it.
 */
function refuseCutShort(path: string, text: string): void {
  if (text === '' || text.endsWith('\n')) return;
  const last = text.slice(text.lastIndexOf('\n') + 1);
  try {
    JSON.parse(last);
  } catch {
    throw new CitegeistError(
      'RUN_FILE_CORRUPT',
      `The grades file ${path} ends in a line cut short (${last.length} bytes without an end): it was truncated, or its grading was stopped mid-write.`,
      'Run the same `citegeist grade … --out` again: it removes the cut line and finishes the grading.',
    );
  }
}
