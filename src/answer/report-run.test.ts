import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ReportRequest } from '../formats/index.js';
import type { ReportWriter } from './report-generator.js';
import { openReportRun, pendingRequests, reportRunManifest, writeReportRun } from './report-run.js';

const request = (id: string): ReportRequest => ({
  id,
  title: `Topic ${id}`,
  background: null,
  problemStatement: null,
  limit: null,
  raw: {},
  where: `requests.jsonl:${id}`,
});

/** A writer that cites one passage per report and fails the topics in `failing`; it records its calls. */
function fakeWriter(failing: string[] = []): ReportWriter & { calls: string[] } {
  const calls: string[] = [];
  return {
    id: 'fake-writer',
    calls,
    write: async ({ request: r, limit }) => {
      calls.push(r.id);
      if (failing.includes(r.id)) return { ok: false, reason: 'the model gave up' };
      return {
        ok: true,
        sentences: [{ text: `Ünïcode about ${r.id} within ${limit}.`, citations: [[`${r.id}-p1`, 90]] }],
      };
    },
  };
}

const settings = (runId = 'run-a') =>
  reportRunManifest({
    runId,
    teamId: 'team',
    writer: 'fake-writer',
    retrieval: 'bm25',
    k: 20,
    indexCreated: '2026-12-01T00:00:00.000Z',
    defaultLimit: 2000,
    lengthMode: 'characters',
    requests: 'requests.jsonl',
    version: '0.1.0',
  });

const dir = () => mkdtempSync(join(tmpdir(), 'report-run-'));

describe('a report run on RunFile', () => {
  it('writes RAGTIME lines as json.dumps does, its manifest beside them, and resumes only the failed requests', async () => {
    const path = join(dir(), 'run.jsonl');
    const requests = ['A', 'B', 'C'].map(request);
    const first = openReportRun(path, settings(), 'test');
    const writer = fakeWriter(['B']);
    const result = await writeReportRun({
      file: first,
      requests,
      writer,
      teamId: 'team',
      lengthMode: 'characters',
    });
    first.close();
    expect(result).toEqual({ written: 2, failed: 1, resumed: 0 });
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\{"metadata": \{"team_id": "team", "run_id": "run-a", "topic_id": "A"\}/);
    expect(lines[0]).toContain('Ünïcode about A within 2000.');
    expect(JSON.parse(readFileSync(`${path}.meta.json`, 'utf8'))).toMatchObject({
      kind: 'report-run',
      label: 'run-a',
      settings: { model: 'fake-writer', k: 20 },
    });

    const again = openReportRun(path, settings(), 'test');
    expect(pendingRequests(again, requests).map((r) => r.id)).toEqual(['B']);
    const retry = fakeWriter();
    expect(
      await writeReportRun({
        file: again,
        requests,
        writer: retry,
        teamId: 'team',
        lengthMode: 'characters',
      }),
    ).toEqual({
      written: 1,
      failed: 0,
      resumed: 2,
    });
    again.close();
    expect(retry.calls).toEqual(['B']);
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(3);
  });

  it('is written by one process at a time: a second writer is refused while the first holds the lock', () => {
    const path = join(dir(), 'run.jsonl');
    const first = openReportRun(path, settings(), 'citegeist reports generate');
    expect(() => openReportRun(path, settings(), 'citegeist reports generate')).toThrow(
      /LOCK_HELD|held|another/i,
    );
    first.close();
    openReportRun(path, settings(), 'citegeist reports generate').close();
  });

  it('refuses to resume a run made with other settings', () => {
    const path = join(dir(), 'run.jsonl');
    openReportRun(path, settings('run-a'), 'test').close();
    expect(() => openReportRun(path, settings('run-b'), 'test')).toThrow(/other settings/);
  });
});
