import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileLock, lockPathOf, readHolder } from './file-lock.js';

const target = () => join(mkdtempSync(join(tmpdir(), 'citegeist-lock-')), 'run.jsonl');
/** The pid of a process that has already exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid as number;

function plant(path: string, holder: Record<string, unknown>): void {
  writeFileSync(
    lockPathOf(path),
    JSON.stringify({
      command: 'citegeist answer',
      started_at: 'then',
      proc_start: null,
      token: 'old',
      ...holder,
    }),
  );
}

describe('FileLock', () => {
  it('is exclusive: a second acquisition names the holder, and the lock is free after release', () => {
    const path = target();
    const lock = FileLock.acquire(path, 'citegeist answer');
    expect(readHolder(lockPathOf(path))?.pid).toBe(process.pid);
    expect(() => FileLock.acquire(path, 'citegeist answer')).toThrow(
      expect.objectContaining({
        code: 'LOCK_HELD',
        problem: expect.stringMatching(/citegeist answer \(pid \d+/),
      }),
    );
    lock.release();
    expect(existsSync(lockPathOf(path))).toBe(false);
    FileLock.acquire(path, 'again').release();
  });

  it('takes over a lock whose process is gone (kill -9), and says from whom', () => {
    const path = target();
    plant(path, { pid: deadPid(), host: hostname() });
    const lock = FileLock.acquire(path, 'citegeist grade');
    expect(lock.tookOver).toHaveLength(1);
    expect(readHolder(lockPathOf(path))?.token).toBe(lock.holder.token);
    lock.release();
  });

  it('never breaks a lock held on another host, and says how to remove it by hand', () => {
    const path = target();
    plant(path, { pid: deadPid(), host: 'elsewhere.example' });
    expect(() => FileLock.acquire(path, 'x')).toThrow(
      expect.objectContaining({
        code: 'LOCK_HELD',
        fix: expect.stringContaining(`delete ${lockPathOf(path)}`),
      }),
    );
  });

  it('refuses an unreadable lock file rather than guessing', () => {
    const path = target();
    writeFileSync(lockPathOf(path), '{"pi');
    expect(() => FileLock.acquire(path, 'x')).toThrow(
      expect.objectContaining({
        code: 'LOCK_HELD',
        fix: expect.stringContaining(`delete ${lockPathOf(path)}`),
      }),
    );
  });

  it('notices when its lock was taken away, and release leaves another holder alone', () => {
    const path = target();
    const lock = FileLock.acquire(path, 'x');
    plant(path, { pid: process.pid, host: hostname(), token: 'someone-else' });
    expect(() => lock.assertHeld(0)).toThrow(expect.objectContaining({ code: 'LOCK_LOST' }));
    lock.release();
    expect(JSON.parse(readFileSync(lockPathOf(path), 'utf8')).token).toBe('someone-else');
  });
});
