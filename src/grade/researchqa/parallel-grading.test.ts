import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { type DatasetRow, DatasetRowSchema, type RunRow, RunRowSchema } from '../../core/index.js';
import { createRandom } from '../../stats/index.js';
import { sharedDataPath } from '../../testing/index.js';
import { preparePaper } from '../../text/index.js';
import { DeterministicGrader } from './deterministic-grader.js';
import { gradeDeterministic, runPool, type WorkerResponse } from './parallel-grading.js';

const PAPERS = ['1701.02962', '1701.04056', '1701.05574', '1701.08229', '1702.03342'];
const texts = new Map(
  PAPERS.map((id) => [id, readFileSync(sharedDataPath('qasper-dev', 'papers', `${id}.txt`), 'utf8')]),
);

/** 1,200 rows over five real papers (and one missing): verbatim, edited and invented quotes. */
function jobs(): { row: DatasetRow; run: RunRow }[] {
  const rand = createRandom(11);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const sentences = new Map(
    PAPERS.map((id) => [
      id,
      texts
        .get(id)!
        .split(/(?<=[.!?])\s+(?=[A-Z])/)
        .filter((s) => s.length > 60 && !s.includes('#')),
    ]),
  );
  return Array.from({ length: 1200 }, (_, r) => {
    const paper = r % 50 === 0 ? 'missing' : pick(PAPERS);
    const ss = sentences.get(paper) ?? ['Nothing here at all, this paper is not available.'];
    const adversarial = rand() < 0.1;
    const groups = adversarial
      ? []
      : Array.from({ length: 1 + Math.floor(rand() * 2) }, (_, g) => ({
          section_label: `S${g}`,
          alternatives: [pick(ss), `${pick(ss)} ${pick(ss)}`],
        }));
    const quotes = Array.from({ length: Math.floor(rand() * 4) }, () => {
      const kind = rand();
      const base = groups.length > 0 ? pick(pick(groups).alternatives) : pick(ss);
      if (kind < 0.5) return base;
      if (kind < 0.8) return base.replace(/\b(the|a|of)\b/, 'some');
      return `We invent ${Math.floor(rand() * 100)} results about ${base.slice(0, 40)}`;
    });
    const row = DatasetRowSchema.parse({
      row_id: `r${r}`,
      paper_id: paper,
      question_type: adversarial ? 'adversarial' : 'lookup',
      question: 'q',
      expected_references: groups,
      expected_refusal: adversarial ? true : null,
    });
    const run = RunRowSchema.parse({
      row_id: `r${r}`,
      model: 'm',
      citations: quotes.map((quote, i) => ({ key: `${i + 1}`, quote })),
      contract: r % 97 !== 0,
      error: r % 89 === 0 ? 'timeout' : null,
    });
    return { row, run };
  });
}

describe('gradeDeterministic', () => {
  const all = jobs();
  const paperText = (id: string) => texts.get(id) ?? null;

  it.each(['researchqa', 'span'] as const)(
    'gives DeterministicGrader’s grades, in input order, on 1, 2 and 3 threads (match %s)',
    async (match) => {
      const grader = new DeterministicGrader(
        (id) => {
          const text = paperText(id);
          return text === null ? null : preparePaper(text);
        },
        { match },
      );
      const expected = all.map(({ row, run }) => grader.grade(row, run));
      // The fixture covers every outcome.
      const statuses = new Set(expected.flatMap((g) => Object.values(g.status)));
      expect(statuses).toEqual(new Set(['scored', 'not-applicable', 'failed']));
      expect(new Set(expected.map((g) => g.citation_precision)).size).toBeGreaterThan(3);
      for (const threads of [1, 2, 3]) {
        const failures: string[] = [];
        const seen: number[] = [];
        const grades = await gradeDeterministic(all, paperText, {
          match,
          threads,
          workerStartMs: 0, // workers at once (this small run would not start any by itself)
          onWorkerFailure: (m) => failures.push(m),
          onRow: (_g, i) => seen.push(i),
        });
        expect(grades).toEqual(expected);
        expect(failures).toEqual([]);
        expect(seen.sort((a, b) => a - b)).toEqual(all.map((_, i) => i));
      }
      // On worker threads only (this thread free): the workers' own grades.
      const threads = new Set<number>();
      const onWorkers = await gradeDeterministic(all, paperText, {
        match,
        threads: 2,
        useThisThread: false,
        onPaper: (_id, thread) => threads.add(thread),
      });
      expect(onWorkers).toEqual(expected);
      expect(threads.has(0)).toBe(false);
      expect(threads.size).toBeGreaterThan(0);
    },
    60_000,
  );

  it('grades small runs in this thread (the work left never pays for a worker)', async () => {
    const threads = new Set<number>();
    const some = await gradeDeterministic(all.slice(0, 30), paperText, {
      threads: 4,
      onPaper: (_id, t) => threads.add(t),
    });
    expect(some).toHaveLength(30);
    expect([...threads]).toEqual([0]);
    expect(await gradeDeterministic([], paperText, { threads: 4 })).toEqual([]);
  });
});

/** A worker from inline code: it answers each task with empty scores, or runs `onTask` first. */
function inlineWorker(onTask: string, atStart = ''): Worker {
  return new Worker(
    `const { parentPort } = require('node:worker_threads');
     ${atStart}
     parentPort.on('message', (m) => { ${onTask}; parentPort.postMessage({ group: m.group, thread: 7, scores: [] }); });
     parentPort.postMessage('ready');`,
    { eval: true },
  );
}

describe('runPool', () => {
  /** Runs 40 tasks of 4 ms each here, with up to one worker that may start by measured work. */
  const deferred = async (workerStartMs: number) => {
    let startedWorkers = 0;
    const byThread = new Map<number, number>();
    await runPool(
      40,
      1,
      () => {
        startedWorkers++;
        return inlineWorker('');
      },
      {
        request: (g) => ({ group: g, text: null, forms: null, rows: [] }),
        local: (g) => {
          const until = performance.now() + 4;
          while (performance.now() < until);
          return { group: g, thread: 0, scores: [] };
        },
        size: () => 1,
        workerStartMs,
        onResponse: (r) => {
          const thread = 'scores' in r ? (r.thread ?? 0) : -1;
          byThread.set(thread, (byThread.get(thread) ?? 0) + 1);
        },
      },
    );
    return { startedWorkers, byThread };
  };

  it('starts no worker while the work left, at the measured pace, is less than a start', async () => {
    const { startedWorkers, byThread } = await deferred(10_000);
    expect(startedWorkers).toBe(0);
    expect([...byThread]).toEqual([[0, 40]]);
  });

  it('starts the workers once the work left outweighs their start', async () => {
    // After the first task, 39 × 4 ms are left: far more than 1 ms.
    const { startedWorkers, byThread } = await deferred(1);
    expect(startedWorkers).toBe(1);
    expect(byThread.get(0)).toBeGreaterThan(0);
    expect((byThread.get(0) ?? 0) + (byThread.get(7) ?? 0)).toBe(40);
  });

  const run = async (count: number, workers: number, start: () => Worker, here = false) => {
    const responses = new Map<number, WorkerResponse>();
    const failures: string[] = [];
    await runPool(count, workers, start, {
      request: (g) => ({ group: g, text: null, forms: null, rows: [] }),
      local: here ? (g) => ({ group: g, thread: 0, scores: [] }) : undefined,
      onResponse: (r) => {
        expect(responses.has(r.group)).toBe(false);
        responses.set(r.group, r);
      },
      onWorkerFailure: (m) => failures.push(m),
    });
    return { responses, failures };
  };

  it('answers every task exactly once, with or without this thread working', async () => {
    const onWorkers = await run(200, 2, () => inlineWorker(''));
    expect(onWorkers.responses.size).toBe(200);
    expect([...onWorkers.responses.values()].every((r) => 'thread' in r && r.thread === 7)).toBe(true);
    const shared = await run(200, 2, () => inlineWorker(''), true);
    expect(shared.responses.size).toBe(200);
    expect([...shared.responses.values()].some((r) => 'thread' in r && r.thread === 0)).toBe(true);
    expect([onWorkers.failures, shared.failures]).toEqual([[], []]);
  });

  it('fails only the task a worker died on, replaces the worker and finishes the rest', async () => {
    const { responses, failures } = await run(60, 1, () =>
      inlineWorker("if (m.group === 5 || m.group === 6) throw new Error('boom on ' + m.group)"),
    );
    expect(responses.size).toBe(60);
    const failed = [...responses.values()].filter((r) => 'error' in r);
    expect(failed.map((r) => r.group)).toEqual([5, 6]);
    for (const r of failed)
      expect('error' in r && r.error).toMatch(/the grading worker stopped: boom on [56]/);
    expect(failures).toHaveLength(2);
  });

  it('treats a worker that exits like one that throws', async () => {
    const { responses, failures } = await run(30, 2, () =>
      inlineWorker('if (m.group === 9) process.exit(3)'),
    );
    expect(responses.size).toBe(30);
    const failed = [...responses.values()].filter((r) => 'error' in r);
    expect(failed.map((r) => r.group)).toEqual([9]);
    expect(failures).toEqual(['the grading worker stopped: it exited with code 3']);
  });

  it('fails a task whose request cannot be made, and goes on', async () => {
    const responses = new Map<number, WorkerResponse>();
    await runPool(20, 1, () => inlineWorker(''), {
      request: (g) => {
        if (g === 3) throw new Error('paper 3 could not be read');
        return { group: g, text: null, forms: null, rows: [] };
      },
      onResponse: (r) => responses.set(r.group, r),
    });
    expect(responses.size).toBe(20);
    expect(responses.get(3)).toEqual({ group: 3, error: 'paper 3 could not be read' });
  });

  it('stops with the reason when no worker can start and this thread does not work', async () => {
    await expect(run(40, 2, () => inlineWorker('', "throw new Error('no start');"))).rejects.toThrow(
      /could not start: no start/,
    );
  });

  it('does the work in this thread when workers cannot start', async () => {
    const { responses } = await run(40, 2, () => inlineWorker('', "throw new Error('no start');"), true);
    expect(responses.size).toBe(40);
    expect([...responses.values()].every((r) => 'scores' in r && r.thread === 0)).toBe(true);
  });

  it('finishes at once with nothing to do', async () => {
    expect((await run(0, 2, () => inlineWorker(''))).responses.size).toBe(0);
  });
});
