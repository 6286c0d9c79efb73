import type { CliIo } from './io.js';

/** A stale lock taken over on the way in: the killed process that held it. */
interface TakenOver {
  pid: number;
  command: string;
  started_at: string;
}

/** Tells the user that a run resumes after a process that stopped without finishing (a stale lock). */
export function noteTakeovers(io: Pick<CliIo, 'err'>, takenOver: readonly TakenOver[]): void {
  for (const t of takenOver)
    io.err(
      `note: resuming after ${t.command} (pid ${t.pid}, started ${t.started_at}) stopped without finishing\n`,
    );
}
