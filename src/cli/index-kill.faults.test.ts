import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { INDEX_FORMAT, loadIndex, readManifest } from '../retrieve/index.js';
import { createRandom } from '../stats/index.js';
import {
  BUILT_CLI,
  builtCli,
  killAt,
  qasperWorkspace,
  REPO_ROOT,
  startCli,
} from '../testing/process-faults.js';

/**
 * kill -9 during `citegeist index` (issue 30): whenever the build is killed, the index folder
 * still opens as the previous complete index (or the new one, if its manifest was renamed in
 * first), `search` answers from it, and the next build finishes and removes what the killed one
 * left behind.
 */
const SEED = Number(process.env.CITEGEIST_FAULT_SEED ?? 20261201);
const KILLS = 8;

// Rebuilding dist/ on a loaded two-core machine can take minutes.
beforeAll(() => {
  builtCli(REPO_ROOT);
}, 900_000);

describe('kill -9 during index', () => {
  it('never leaves a half-written index in use', async () => {
    const { cwd, run, addPapers } = qasperWorkspace('citegeist-index-kill-', 0, 60);
    expect((await run(['ingest', 'papers'])).code).toBe(0);
    expect((await run(['index', '--no-dense'])).code).toBe(0);
    const dir = join(cwd, '.citegeist', 'index');
    const first = readManifest(dir);
    const rand = createRandom(SEED);
    let killed = 0;
    for (let i = 0; i < KILLS; i++) {
      // The default embedder (LSA) makes the build long enough to be killed in every phase; every
      // other build runs on worker threads (a kill then lands in a shard, the merge or an embedding).
      const jobs = i % 2 === 1 ? ['--jobs', '2'] : [];
      const p = startCli(BUILT_CLI, ['index', '--rebuild', ...jobs], cwd, {});
      if ((await killAt(p, { afterMs: 300 + Math.floor(rand() * 6000) })) === 'killed') killed++;
      const now = readManifest(dir);
      expect(now.format).toBe(INDEX_FORMAT);
      const saved = loadIndex(dir);
      expect(saved.bm25.search('neural machine translation', 5).length).toBe(5);
      expect(saved.passages.size).toBe(now.passages);
      const searched = await run(['search', 'neural machine translation', '--mode', 'bm25']);
      expect(searched.code, searched.err).toBe(0);
      expect(now.generation === first.generation || now.embedderSpec !== null).toBe(true);
    }
    expect(killed).toBeGreaterThan(0);
    const last = await run(['index', '--rebuild', '--no-dense']);
    expect(last.code, last.err).toBe(0);
    const generations = readdirSync(dir).filter((n) => n.startsWith('g-'));
    expect(generations).toEqual([readManifest(dir).generation]);
    // An update in place (papers added: a new part) killed at any moment leaves the previous
    // index or the updated one, never a mix; the next run finishes the update.
    addPapers(60, 72);
    expect((await run(['ingest', 'papers'])).code).toBe(0);
    const before = readManifest(dir);
    let updatesKilled = 0;
    for (let i = 0; i < 4; i++) {
      const p = startCli(BUILT_CLI, ['index', '--no-dense', ...(i % 2 ? ['--jobs', '2'] : [])], cwd, {});
      if ((await killAt(p, { afterMs: 200 + Math.floor(rand() * 2500) })) === 'killed') updatesKilled++;
      const now = readManifest(dir);
      expect([before.generation, now.generation]).toContain(now.generation);
      expect(now.parts?.length === 1 || now.parts?.length === 2).toBe(true);
      const saved = loadIndex(dir);
      expect(saved.bm25.search('neural machine translation', 5).length).toBe(5);
      expect([...saved.passages.keys()].length).toBe(now.passages);
      if (now.generation !== before.generation) break;
    }
    const updated = await run(['index', '--no-dense']);
    expect(updated.code, updated.err).toBe(0);
    expect(readManifest(dir).parts).toHaveLength(2);
    expect(readdirSync(dir).filter((n) => n.startsWith('g-'))).toEqual([readManifest(dir).generation]);
    console.log(
      `index kill -9: ${killed}/${KILLS} builds and ${updatesKilled} updates killed; the index opened and answered after each`,
    );
  });
});
