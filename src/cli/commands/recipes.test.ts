import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileLock } from '../../io/index.js';
import { estimateCost } from '../../llm/index.js';
import { recipeMessages } from '../../retrieve/index.js';
import { CorpusStore } from '../../store/index.js';
import { FakeOpenAiServer } from '../../testing/index.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

const PAPERS: Record<string, string> = {
  a: '# Titania films\n\n## Methods\n\nTitanium isopropoxide was hydrolysed and the sol was spin-coated, then annealed at 450 degrees.\n',
  b: '# Silver nanoparticles\n\n## Methods\n\nSilver nitrate was reduced with sodium citrate at 90 degrees for 30 minutes.\n',
  c: '# Perovskite cells\n\n## Methods\n\nThe perovskite films were annealed at 100 degrees for ten minutes.\n',
};
const recipeJson = (material: string) =>
  JSON.stringify({
    material_name: material,
    synthesis_method: 'wet chemistry',
    steps: [{ description: 'Mix.' }, { description: 'Heat.' }],
    key_points: ['simple'],
  });

async function run(cwd: string, argv: string[]) {
  const { io, stdout, stderr } = memoryIo({ cwd });
  const code = await runCli(argv, io);
  return { code, out: stdout(), err: stderr() };
}

let server: FakeOpenAiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A corpus of three papers with an index, and a fake model that names each recipe after its paper. */
async function workspace(): Promise<{ cwd: string; model: string }> {
  const cwd = mkdtempSync(join(tmpdir(), 'citegeist-recipes-'));
  for (const [id, text] of Object.entries(PAPERS)) writeFileSync(join(cwd, `${id}.md`), text);
  expect((await run(cwd, ['ingest', 'a.md', 'b.md', 'c.md'])).code).toBe(0);
  expect((await run(cwd, ['index', '--embedder', 'hashed:64'])).code).toBe(0);
  server = await new FakeOpenAiServer({
    replies: (request) => ({
      text: recipeJson(/Title: (.*)/.exec(request.messages.at(-1)?.content ?? '')?.[1] ?? '?'),
    }),
  }).start();
  return { cwd, model: `openai-compatible:${server.url}/v1#tiny` };
}

const recipesFile = (cwd: string) => join(cwd, '.citegeist', 'index', 'recipes.jsonl');
const extract = (cwd: string, model: string, ...more: string[]) =>
  run(cwd, ['recipes', 'extract', '--model', model, '--no-cache', ...more]);

describe('citegeist recipes extract', () => {
  it('extracts, resumes (a torn line too), refuses another model and a second writer; search reads the recipes', async () => {
    const { cwd, model } = await workspace();
    const first = await extract(cwd, model);
    expect(first.code, first.err).toBe(0);
    expect(first.out).toMatch(
      /^recipes "openai-compatible:[^"]+#tiny": 3 extracted, 0 kept from an earlier run, 0 failed → \.citegeist\/index\/recipes\.jsonl\n$/,
    );
    const found = await run(cwd, ['search', 'silver citrate', '--mode', 'reciper', '-k', '3']);
    expect(found.code, found.err).toBe(0);
    expect(found.out).toMatch(
      /^mode reciper: reciper \(paragraph candidates: [^;]+; recipes of 3\/3 papers by openai-compatible:/,
    );
    expect(found.err).toBe('');

    // kill -9 in the middle of a line: the resume drops the torn line and redoes that paper only.
    const text = readFileSync(recipesFile(cwd), 'utf8');
    writeFileSync(recipesFile(cwd), text.slice(0, -25));
    const calls = server!.requests.length;
    const resumed = await extract(cwd, model);
    expect(resumed.out).toMatch(/: 1 extracted, 2 kept from an earlier run, 0 failed/);
    expect(server!.requests.length - calls).toBe(1);
    expect(readFileSync(recipesFile(cwd), 'utf8').split('\n').filter(Boolean)).toHaveLength(4);

    const other = await extract(cwd, model.replace('#tiny', '#other'));
    expect(other.code).toBe(1);
    expect(other.err).toMatch(
      /RUN_MANIFEST_MISMATCH[\s\S]*model: "openai-compatible:[^"]+#tiny" in the file/,
    );
    expect(other.err).toMatch(/--out <file> \(search, retrieve and qa-grid read it with --recipes <file>\)/);
    // …which is how a second model's recipes are kept beside the first's.
    const beside = await extract(cwd, model.replace('#tiny', '#other'), '--out', 'other.jsonl');
    expect(beside.code, beside.err).toBe(0);
    const searched = await run(cwd, ['search', 'silver', '--mode', 'reciper', '--recipes', 'other.jsonl']);
    expect(searched.out).toMatch(/recipes of 3\/3 papers by openai-compatible:[^\n]*#other\)/);

    const lock = FileLock.acquire(recipesFile(cwd), 'citegeist recipes extract');
    try {
      const second = await extract(cwd, model);
      expect(second.code).toBe(1);
      expect(second.err).toMatch(/LOCK_HELD/);
    } finally {
      lock.release();
    }
  });

  it('redoes a paper that changed, says so, and retrieval leaves its stale recipe out meanwhile', async () => {
    const { cwd, model } = await workspace();
    expect((await extract(cwd, model)).code).toBe(0);
    writeFileSync(join(cwd, 'a.md'), PAPERS.a!.replace('450 degrees', '500 degrees for an hour'));
    expect((await run(cwd, ['ingest', 'a.md'])).code).toBe(0);
    expect((await run(cwd, ['index', '--embedder', 'hashed:64'])).code).toBe(0);
    const stale = await run(cwd, ['search', 'titania', '--mode', 'reciper']);
    expect(stale.code, stale.err).toBe(0);
    expect(stale.err).toMatch(
      /warning: 1 recipe\(s\) in \.citegeist\/index\/recipes\.jsonl were extracted from an earlier version of their paper \(a\)/,
    );
    expect(stale.out).toMatch(/recipes of 2\/3 papers/);

    const estimate = await extract(cwd, model, '--dry-run');
    expect(estimate.out).toMatch(
      /1 papers to extract [^\n]*\(2 kept [^\n]*1 paper\(s\) changed since their recipe was extracted \(a\)\)/,
    );
    const redo = await extract(cwd, model);
    expect(redo.err).toMatch(
      /note: 1 paper\(s\) changed since their recipe was extracted \(a\); redoing them/,
    );
    expect(redo.out).toMatch(
      /: 1 extracted \(1 redone because their paper changed\), 2 kept from an earlier run, 0 failed/,
    );
    expect(server!.requests.at(-1)?.messages.at(-1)?.content).toMatch(/500 degrees for an hour/);
    const fresh = await run(cwd, ['search', 'titania', '--mode', 'reciper']);
    expect(fresh.err).toBe('');
    expect(fresh.out).toMatch(/recipes of 3\/3 papers/);
  });

  it('--dry-run prices the very prompts, needs no key, and writes nothing', async () => {
    const { cwd } = await workspace();
    const before = readdirSync(join(cwd, '.citegeist')).sort();
    // openai: with no OPENAI_API_KEY in the environment; gpt-4.1-mini has a list price.
    const r = await run(cwd, ['recipes', 'extract', '--model', 'openai:gpt-4.1-mini', '--dry-run', '--json']);
    expect(r.code, r.err).toBe(0);
    const store = CorpusStore.open(join(cwd, '.citegeist', 'corpus.sqlite'), { readonly: true });
    const docs = store.ids().flatMap((id) => store.get(id) ?? []);
    store.close();
    const expected = estimateCost(
      'openai:gpt-4.1-mini',
      docs.map((d) => ({ messages: recipeMessages(d) })),
      { expectedOutputTokens: 500 },
    );
    expect(JSON.parse(r.out)).toEqual({
      dry_run: true,
      label: 'openai:gpt-4.1-mini',
      papers: 3,
      kept: 0,
      changed: 0,
      retried: 0,
      failed_earlier: 0,
      ...expected,
    });
    expect(expected.costUsd).toBeGreaterThan(0);
    const text = await run(cwd, ['recipes', 'extract', '--model', 'openai:gpt-4.1-mini', '--dry-run']);
    expect(text.out).toBe(
      `dry run, nothing called or written: 3 papers to extract as "openai:gpt-4.1-mini" (0 kept from .citegeist/index/recipes.jsonl)\n` +
        `  3 calls, ~${expected.inputTokens} input + ~1500 output tokens (500 per paper assumed), ~$${expected.costUsd?.toFixed(4)}; a reply that fails validation makes up to 2 more calls\n`,
    );
    expect(readdirSync(join(cwd, '.citegeist')).sort()).toEqual(before);
    expect(readdirSync(join(cwd, '.citegeist', 'index'))).not.toContain('recipes.jsonl');
    expect(server!.requests).toHaveLength(0);
  });

  it('reads a recipes file of an older citegeist (no manifest) with a note, and will not extend it', async () => {
    const { cwd, model } = await workspace();
    const legacy = ['a', 'b'].map((docId) => ({
      docId,
      ok: true,
      recipe: JSON.parse(recipeJson(`old ${docId}`)),
      model: 'ollama:qwen2.5:7b',
    }));
    writeFileSync(recipesFile(cwd), legacy.map((l) => `${JSON.stringify(l)}\n`).join(''));
    const found = await run(cwd, ['search', 'silver', '--mode', 'reciper', '--json']);
    expect(found.code, found.err).toBe(0);
    expect(found.err).toMatch(
      /note: \.citegeist\/index\/recipes\.jsonl has no manifest \(an older citegeist wrote it\)/,
    );
    expect(JSON.parse(found.out).retrieval).toMatch(/recipes of 2\/3 papers\)$/);
    const refused = await extract(cwd, model);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/RUN_FILE_FOREIGN[\s\S]*no manifest[\s\S]*Move it away/);
    expect(existsSync(`${recipesFile(cwd)}.lock`)).toBe(false);
    expect(server!.requests).toHaveLength(0);
  });
});
