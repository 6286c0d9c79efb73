import { appendFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createManifest,
  defaultLabel,
  hashItems,
  manifestDifferences,
  unitKey,
} from '../core/run-manifest.js';
import { lockPathOf } from './file-lock.js';
import { byField, inspectRunFile, RunFile, type RunFileOptions, reorderRunFile } from './run-file.js';

const H = (c: string) => c.repeat(64);
const manifest = (k = 8, dataset = 'a') =>
  createManifest({
    kind: 'run',
    defaultLabel: defaultLabel('m', { k }, { k: 8 }),
    settings: { model: 'm', k },
    inputs: { dataset: { sha256: H(dataset), path: 'd.jsonl' } },
    version: '1.0.0',
  });
const options = (m = manifest()): RunFileOptions => ({
  manifest: m,
  idField: 'row_id',
  keep: (r) => r.error === null,
  what: 'run file',
  command: 'test',
});
const file = () => join(mkdtempSync(join(tmpdir(), 'citegeist-runfile-')), 'run.jsonl');
const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

describe('run manifest', () => {
  it('derives the label from the settings that differ from their defaults, and a stable run id', () => {
    expect(manifest().label).toBe('m');
    expect(manifest(3).label).toBe('m (k=3)');
    expect(manifest().run_id).toBe(manifest().run_id);
    expect(manifest(3).run_id).not.toBe(manifest().run_id);
    expect(unitKey(manifest(), 'p1:q/2')).toBe(`${manifest().run_id}-p1%3Aq%2F2`);
  });

  it('lists every difference that forbids a resume, and none for a path or a time', () => {
    expect(manifestDifferences(manifest(8), manifest(3, 'b'))).toEqual([
      'label: "m" in the file, "m (k=3)" now',
      'k: 8 in the file, 3 now',
      'dataset: content sha256 aaaaaaaaaaaa… in the file, bbbbbbbbbbbb… now',
    ]);
    const moved = {
      ...manifest(),
      created_at: 'later',
      inputs: { dataset: { sha256: H('a'), path: 'elsewhere' } },
    };
    expect(manifestDifferences(manifest(), moved)).toEqual([]);
  });

  it('hashes named items independently of their order', () => {
    expect(
      hashItems([
        ['a', 'x'],
        ['b', null],
      ]),
    ).toBe(
      hashItems([
        ['b', null],
        ['a', 'x'],
      ]),
    );
    expect(hashItems([['a', 'x']])).not.toBe(hashItems([['a', 'y']]));
  });
});

describe('RunFile', () => {
  it('starts a new file with its manifest, appends rows, and resumes keeping good rows only', () => {
    const path = file();
    const out = RunFile.open(path, options());
    out.append({ row_id: 'r1', error: null });
    out.append({ row_id: 'r2', error: 'timeout' });
    out.close();
    const again = RunFile.open(path, options());
    expect(again.kept.map((r) => r.row_id)).toEqual(['r1']);
    again.append({ row_id: 'r2', error: null });
    again.close();
    const [head, ...rows] = lines(path);
    expect(head).toMatchObject({ citegeist_manifest: 1, kind: 'run', label: 'm' });
    expect(rows.map((r) => r.row_id)).toEqual(['r1', 'r2']);
  });

  it('drops the torn last line a killed writer leaves, and nothing else', () => {
    const path = file();
    const out = RunFile.open(path, options());
    out.append({ row_id: 'r1', error: null });
    out.close();
    appendFileSync(path, '{"row_id":"r2","err');
    expect(inspectRunFile(path, options())).toMatchObject({ torn: true, redo: 1 });
    RunFile.open(path, options()).close();
    expect(readFileSync(path, 'utf8').endsWith('"error":null}\n')).toBe(true);
  });

  it('refuses a file of another run, saying what differs, and leaves it untouched', () => {
    const path = file();
    RunFile.open(path, options()).close();
    const before = readFileSync(path, 'utf8');
    expect(() => RunFile.open(path, options(manifest(3)))).toThrow(
      expect.objectContaining({
        code: 'RUN_MANIFEST_MISMATCH',
        problem: expect.stringContaining('k: 8 in the file, 3 now'),
      }),
    );
    expect(readFileSync(path, 'utf8')).toBe(before);
  });

  it.each([
    ['rows without a manifest', '{"row_id":"x","model":"other"}\n', 'RUN_FILE_FOREIGN'],
    ['a bad line inside', 'MANIFEST\nnot json\n{"row_id":"a","error":null}\n', 'RUN_FILE_CORRUPT'],
    [
      'a repeated row id',
      'MANIFEST\n{"row_id":"a","error":null}\n{"row_id":"a","error":null}\n',
      'RUN_FILE_CORRUPT',
    ],
    ['two manifests', 'MANIFEST\nMANIFEST\n', 'RUN_FILE_CORRUPT'],
  ])('refuses %s (a row it did not write is never dropped)', (_what, text, code) => {
    const path = file();
    const content = text.replaceAll('MANIFEST', JSON.stringify(manifest()));
    writeFileSync(path, content);
    expect(() => RunFile.open(path, options())).toThrow(expect.objectContaining({ code }));
    expect(readFileSync(path, 'utf8')).toBe(content);
  });

  it('is locked while open: a second writer is refused, the lock goes with close', () => {
    const path = file();
    const out = RunFile.open(path, options());
    expect(() => RunFile.open(path, options())).toThrow(expect.objectContaining({ code: 'LOCK_HELD' }));
    out.close();
    expect(() => readFileSync(lockPathOf(path))).toThrow();
  });
});

describe('RunFile leftovers', () => {
  it('removes the temporary file of a rewrite a killed writer left, and nothing else', () => {
    const path = file();
    const dir = join(path, '..');
    writeFileSync(join(dir, '.run.jsonl.0a1b2c3d.tmp'), 'half a rewrite');
    writeFileSync(join(dir, 'notes.tmp'), 'mine');
    RunFile.open(path, options()).close();
    expect(readdirSync(dir).sort()).toEqual(['notes.tmp', 'run.jsonl']);
  });
});

describe('reorderRunFile (a queue run ends in the order of its units)', () => {
  const dir = () => mkdtempSync(join(tmpdir(), 'citegeist-reorder-'));
  const lines = (...rows: object[]) => rows.map((r) => `${JSON.stringify(r)}\n`).join('');

  it('sorts rows by unit, keeps the manifest first, and leaves lines of other units where they are', () => {
    const path = join(dir(), 'run.jsonl');
    const manifest = { citegeist_manifest: 1, kind: 'run', label: 'x' };
    writeFileSync(path, lines(manifest, { row_id: 'c' }, { other: true }, { row_id: 'a' }, { row_id: 'b' }));
    expect(reorderRunFile(path, { command: 'test', key: byField('row_id'), order: ['a', 'b', 'c'] })).toBe(
      true,
    );
    expect(readFileSync(path, 'utf8')).toBe(
      lines(manifest, { row_id: 'a' }, { other: true }, { row_id: 'b' }, { row_id: 'c' }),
    );
    expect(readdirSync(join(path, '..')).sort()).toEqual(['run.jsonl']);
  });

  it('leaves a file in order alone, keeps rows of one unit in their order, and reorders companions', () => {
    const d = dir();
    const progress = join(d, 'out.jsonl.papers.jsonl');
    const data = join(d, 'out.jsonl');
    writeFileSync(progress, lines({ paper_id: 'p1' }, { paper_id: 'p2' }));
    writeFileSync(data, lines({ paper_id: 'p2', n: 1 }, { paper_id: 'p1', n: 1 }, { paper_id: 'p2', n: 2 }));
    const key = byField('paper_id');
    expect(
      reorderRunFile(progress, {
        command: 'test',
        key,
        order: ['p1', 'p2'],
        companions: [{ path: data, key }],
      }),
    ).toBe(true);
    expect(readFileSync(progress, 'utf8')).toBe(lines({ paper_id: 'p1' }, { paper_id: 'p2' }));
    expect(readFileSync(data, 'utf8')).toBe(
      lines({ paper_id: 'p1', n: 1 }, { paper_id: 'p2', n: 1 }, { paper_id: 'p2', n: 2 }),
    );
    expect(reorderRunFile(progress, { command: 'test', key, order: ['p1', 'p2'] })).toBe(false);
  });
});

describe('RunFile companions and facts beside the manifest', () => {
  it('a companion drops the rows of unfinished units and a torn line, and appends under the lock', () => {
    const path = file();
    const out = `${path}.rows.jsonl`;
    writeFileSync(out, '{"row_id":"a","n":1}\n{"row_id":"b","n":2}\n{"row_id":"a","n":3}\n{"row_id":"c"');
    const run = RunFile.open(path, options());
    const rows = run.companion(out, (r) => r.row_id === 'a');
    expect(lines(out)).toEqual([
      { row_id: 'a', n: 1 },
      { row_id: 'a', n: 3 },
    ]);
    rows.appendAll([{ row_id: 'b', n: 4 }]);
    expect(() => RunFile.open(path, options())).toThrow(expect.objectContaining({ code: 'LOCK_HELD' }));
    rows.close();
    run.close();
    expect(lines(out).map((r) => r.n)).toEqual([1, 3, 4]);
  });

  it('writes besideFacts into the manifest file at every open without comparing them', () => {
    const path = file();
    const beside = { ...options(), manifestPath: `${path}.meta.json` };
    RunFile.open(path, { ...beside, besideFacts: { inputs_sha256: { a: '1' }, kind: 'not this' } }).close();
    const first = JSON.parse(readFileSync(`${path}.meta.json`, 'utf8'));
    expect(first).toMatchObject({ kind: 'run', inputs_sha256: { a: '1' } });
    RunFile.open(path, { ...beside, besideFacts: { inputs_sha256: { a: '2' } } }).close();
    expect(JSON.parse(readFileSync(`${path}.meta.json`, 'utf8'))).toMatchObject({
      run_id: first.run_id,
      inputs_sha256: { a: '2' },
    });
  });
});
