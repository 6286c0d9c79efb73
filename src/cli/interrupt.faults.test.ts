import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignReply, corpusState, datasetIds, faultWorkspace } from '../testing/fault-workspace.js';
import { FakeOpenAiServer } from '../testing/index.js';
import {
  builtCli,
  type CliProcess,
  readJsonlState,
  rowAccounting,
  startCli,
} from '../testing/process-faults.js';

/**
 * Ctrl-C and SIGTERM (issue 31): a long command stops with 130 or 143 as a signal's death would, says
 * what was kept and that the same command continues, leaves no lock, WAL or half-written row, and
 * a re-run finishes the work with nothing lost or done twice.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
let main: string;
let server: FakeOpenAiServer;

beforeAll(async () => {
  main = builtCli(ROOT);
  server = await new FakeOpenAiServer({ replies: campaignReply, latencyMs: 40 }).start();
}, 180_000);
afterAll(async () => {
  await server?.close();
});

/** The answer rows of a run file (its manifest line is not a row). */
const rowsOf = (path: string) => readJsonlState(path).values.filter((v) => 'row_id' in v);

/** Sends `signal` once `ready()` holds, then waits for the exit. */
async function signalWhen(p: CliProcess, ready: () => boolean, signal: NodeJS.Signals) {
  const started = Date.now();
  while (!ready()) {
    if (Date.now() - started > 60_000) throw new Error(`never ready; stderr: ${p.stderr()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  p.child.kill(signal);
  return p.exited;
}

describe('interrupts', () => {
  it('answer on SIGINT: exit 130, a note on how to continue, no lock left; the re-run completes the rows', async () => {
    const dir = faultWorkspace(200, 10);
    const model = `openai-compatible:${server.url}/v1#fake-model`;
    const argv = `answer --dataset dataset.jsonl --papers papers --model ${model} --out run.jsonl --concurrency 2`;
    const run = join(dir, 'run.jsonl');
    const first = startCli(main, argv.split(' '), dir, {});
    const exit = await signalWhen(first, () => rowsOf(run).length >= 5, 'SIGINT');
    expect(exit.code).toBe(130);
    expect(first.stderr()).toMatch(/interrupted by SIGINT\. .*run the same command again to continue/);
    expect(existsSync(`${run}.lock`)).toBe(false);
    expect(readJsonlState(run)).toMatchObject({ corrupt: 0, torn: false });
    expect(rowsOf(run).length).toBeLessThan(200);

    const second = startCli(main, argv.split(' '), dir, {});
    expect((await second.exited).code).toBe(0);
    const rows = rowsOf(run);
    expect(rowAccounting(rows, 'row_id', datasetIds(200, 10))).toEqual({ duplicated: 0, lost: 0, extra: 0 });
  }, 120_000);

  it('ingest on SIGTERM: exit 143, per-file lines on redirected output, the corpus closed without -wal/-shm', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'citegeist-interrupt-'));
    mkdirSync(join(dir, 'papers'));
    for (let i = 0; i < 1500; i++) {
      const body = `Paragraph ${i} of a paper about interrupts, with some words to index.`;
      writeFileSync(
        join(dir, 'papers', `p${String(i).padStart(4, '0')}.md`),
        `# Paper ${i}\n\n## Intro\n\n${body}\n`,
      );
    }
    const argv = ['ingest', 'papers', '--corpus', 'corpus.sqlite'];
    const first = startCli(main, argv, dir, {});
    const printed = () => (first.stdout().match(/^ {2}ingested /gm) ?? []).length;
    const exit = await signalWhen(first, () => printed() >= 3, 'SIGTERM');
    expect(exit.code).toBe(143);
    expect(first.stderr()).toMatch(/interrupted by SIGTERM\./);
    const lines = printed();
    // Checked before the test's own reader opens the corpus.
    expect(readdirSync(dir).filter((f) => /-(wal|shm)$/.test(f))).toEqual([]);
    const stored = corpusState(join(dir, 'corpus.sqlite'));
    // Every stored paper was announced; at most the one in flight when the signal came is not.
    expect(stored.documents).toBeGreaterThanOrEqual(lines);
    expect(stored.documents - lines).toBeLessThanOrEqual(1);
    expect(stored.problems).toBe(0);

    const second = startCli(main, argv, dir, {});
    expect((await second.exited).code).toBe(0);
    expect(second.stdout()).toMatch(/ingested \d+, unchanged \d+, failed 0/);
    expect(corpusState(join(dir, 'corpus.sqlite'))).toMatchObject({
      documents: 1500,
      duplicates: 0,
      problems: 0,
    });
  }, 180_000);
});
