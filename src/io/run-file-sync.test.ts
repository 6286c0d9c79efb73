import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// fsync and closeSync are watched (the rest of node:fs is the real one): the background flush is
// observed directly, its completion released by hand.
// Each released flush resolves once the real fsync's callback (RunFile's own) has run.
const pending: (() => Promise<void>)[] = [];
const calls = vi.hoisted(() => ({ fsync: [] as number[], closeSync: [] as number[] }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  return {
    ...fs,
    fsync: (fd: number, callback: (error: Error | null) => void) => {
      calls.fsync.push(fd);
      pending.push(
        () =>
          new Promise<void>((resolve) =>
            fs.fsync(fd, (error) => {
              callback(error);
              resolve();
            }),
          ),
      );
    },
    closeSync: (fd: number) => {
      calls.closeSync.push(fd);
      fs.closeSync(fd);
    },
  };
});

const { RunFile } = await import('./run-file.js');
const { createManifest } = await import('../core/run-manifest.js');

const manifest = createManifest({
  kind: 'run',
  defaultLabel: 'm',
  settings: { model: 'm' },
  inputs: { dataset: { sha256: 'a'.repeat(64), path: 'd.jsonl' } },
  version: '1.0.0',
});
const open = () =>
  RunFile.open(join(mkdtempSync(join(tmpdir(), 'citegeist-runfile-sync-')), 'run.jsonl'), {
    manifest,
    idField: 'row_id',
    keep: () => true,
    what: 'run file',
    command: 'test',
  });

describe('RunFile background fsync', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    calls.fsync.length = 0;
    calls.closeSync.length = 0;
    pending.length = 0;
  });
  afterEach(() => vi.useRealTimers());

  it('starts one flush 200 ms after the first unsynced row, covering the rows appended meanwhile', () => {
    const run = open();
    run.append({ row_id: '1' });
    run.append({ row_id: '2' });
    vi.advanceTimersByTime(199);
    expect(calls.fsync).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(calls.fsync).toHaveLength(1);
    run.append({ row_id: '3' });
    // The first flush is still running: the next one waits for it.
    vi.advanceTimersByTime(200);
    expect(calls.fsync).toHaveLength(1);
    pending.shift()?.();
    run.close();
  });

  it('never waits for the disk while appending, and leaves no flush behind after close', () => {
    const run = open();
    for (let i = 0; i < 1000; i++) run.append({ row_id: String(i) });
    expect(calls.fsync).toEqual([]);
    run.close();
    vi.advanceTimersByTime(1000);
    expect(calls.fsync).toEqual([]);
    expect(readFileSync(run.path, 'utf8').split('\n').filter(Boolean)).toHaveLength(1001);
  });

  it('closes the file only once a flush still running at close has ended', async () => {
    const run = open();
    run.append({ row_id: '1' });
    vi.advanceTimersByTime(200);
    const [fd] = calls.fsync;
    calls.closeSync.length = 0; // the lock file's own descriptor may have had the same number
    run.close();
    expect(calls.closeSync).not.toContain(fd);
    expect(() => run.append({ row_id: '2' })).toThrow(/closed/);
    vi.useRealTimers();
    // The flush ends (its callback runs) and only then is the file closed: no timer is waited on.
    await pending.shift()?.();
    expect(calls.closeSync).toContain(fd);
  });
});
