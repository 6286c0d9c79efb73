import { CitegeistError } from '../../core/index.js';

/**
 * Labels name runs: two files under one label must hold the same run (same run id), else the
 * leaderboard would merge two runs into one column.
 */
export class RunsByLabel {
  private readonly seen = new Map<string, { runId: string; file: string }>();

  add(label: string, runId: string, file: string): void {
    const before = this.seen.get(label);
    if (!before) this.seen.set(label, { runId, file });
    else if (before.runId !== runId) {
      throw new CitegeistError(
        'DUPLICATE_LABEL',
        `${before.file} and ${file} are two different runs with the same label "${label}".`,
        'Give them different labels (--label when answering or grading), or leave one out.',
      );
    }
  }
}
