import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readManifest } from '../retrieve/index.js';
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
 * kill -9 during `citegeist index --ann` (issue 30): the graph is written into a generation folder
 * before the manifest naming it, so a killed build (or a graph added to an up-to-date index) leaves
 * either the index without a graph or the one with its complete, certified graph, and dense search
 * answers from it either way.
 */
const SEED = Number(process.env.CITEGEIST_FAULT_SEED ?? 20261202);
const KILLS = 6;

beforeAll(() => {
  builtCli(REPO_ROOT);
}, 900_000);

describe('kill -9 during index --ann', () => {
  it('leaves the index without a graph or with its complete graph, never a broken one', async () => {
    const { cwd, run } = qasperWorkspace('citegeist-ann-kill-', 0, 40);
    expect((await run(['ingest', 'papers'])).code).toBe(0);
    expect((await run(['index'])).code).toBe(0);
    const dir = join(cwd, '.citegeist', 'index');
    const rand = createRandom(SEED);
    let killed = 0;
    for (let i = 0; i < KILLS; i++) {
      // Alternately a graph added to the up-to-date index and a rebuild with one.
      const argv = i % 2 === 0 ? ['index', '--ann'] : ['index', '--rebuild', '--ann'];
      const p = startCli(BUILT_CLI, argv, cwd, {});
      if ((await killAt(p, { afterMs: 300 + Math.floor(rand() * 4000) })) === 'killed') killed++;
      const now = readManifest(dir);
      if (now.ann) expect(existsSync(join(dir, now.generation!, now.ann.file))).toBe(true);
      const searched = await run(['search', 'neural machine translation', '--mode', 'dense', '-k', '3']);
      expect(searched.code, searched.err).toBe(0);
      expect(searched.out).toMatch(now.ann ? /dense search: ANN graph/ : /dense search: exact/);
      // Back to an index without a graph for the next round.
      if (now.ann) expect((await run(['index', '--rebuild'])).code).toBe(0);
    }
    expect(killed).toBeGreaterThan(0);
    const last = await run(['index', '--ann']);
    expect(last.code, last.err).toBe(0);
    expect(readManifest(dir).ann?.metTarget).toBe(true);
    console.log(`index --ann kill -9: ${killed}/${KILLS} killed; the index opened and answered after each`);
  });
});
