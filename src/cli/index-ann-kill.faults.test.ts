import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { readManifest } from '../retrieve/index.js';
import { createRandom } from '../stats/index.js';
import { builtCli, killAt, startCli } from '../testing/process-faults.js';
import { sharedDataPath } from '../testing/shared-data.js';

/**
 * kill -9 during `citegeist index --ann` (issue 30): the graph is written into a generation folder
 * before the manifest naming it, so a killed build (or a graph added to an up-to-date index) leaves
 * either the index without a graph or the one with its complete, certified graph, and dense search
 * answers from it either way.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const MAIN = join(ROOT, 'dist', 'cli', 'main.js');
const SEED = Number(process.env.CITEGEIST_FAULT_SEED ?? 20261202);
const KILLS = 6;

beforeAll(() => {
  builtCli(ROOT);
}, 900_000);

describe('kill -9 during index --ann', () => {
  it('leaves the index without a graph or with its complete graph, never a broken one', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'citegeist-ann-kill-'));
    const papersDir = sharedDataPath('qasper-dev', 'papers');
    mkdirSync(join(cwd, 'papers'));
    for (const f of readdirSync(papersDir).sort().slice(0, 40))
      copyFileSync(join(papersDir, f), join(cwd, 'papers', f));
    const run = async (argv: string[]) => {
      const p = startCli(MAIN, argv, cwd, {});
      const { code } = await p.exited;
      return { code, out: p.stdout(), err: p.stderr() };
    };
    expect((await run(['ingest', 'papers'])).code).toBe(0);
    expect((await run(['index'])).code).toBe(0);
    const dir = join(cwd, '.citegeist', 'index');
    const rand = createRandom(SEED);
    let killed = 0;
    for (let i = 0; i < KILLS; i++) {
      // Alternately a graph added to the up-to-date index and a rebuild with one.
      const argv = i % 2 === 0 ? ['index', '--ann'] : ['index', '--rebuild', '--ann'];
      const p = startCli(MAIN, argv, cwd, {});
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
