import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CitegeistError, DocumentSchema } from '../../core/index.js';
import { FileLock } from '../../io/index.js';
import { FakeLlm } from '../../testing/index.js';
import { extractRecipesInto } from './extract-recipes.js';
import { paperSha256, recipeMessages } from './recipe.js';
import { readRecipes, recipesManifest } from './recipe-file.js';

const doc = (id: string, title: string, text: string) =>
  DocumentSchema.parse({ id, title, source: 'text', text });
const recipeJson = (material: string) =>
  JSON.stringify({
    material_name: material,
    synthesis_method: 'sol-gel',
    steps: [{ description: 'Mix precursors.' }, { description: 'Anneal at 500 C.' }],
    key_points: ['cheap', 'scalable'],
  });
const manifestFor = (model = 'fake:scripted', corpus = '../corpus.sqlite') =>
  recipesManifest({ model, corpus, version: '0.1.0' });
const fileIn = () => join(mkdtempSync(join(tmpdir(), 'recipes-')), 'recipes.jsonl');
const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
/** Replies with a recipe named after the paper's title. */
const byTitle = () =>
  new FakeLlm((request) => recipeJson(/Title: (.*)/.exec(request.messages[1]?.content ?? '')?.[1] ?? '?'));
const rejects = async (work: Promise<unknown>): Promise<CitegeistError> => {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).not.toBeNull();
  return error as CitegeistError;
};

const docs = [doc('d1', 'TiO2 films', 'We made TiO2.'), doc('d2', 'Essay', 'No procedure here.')];

describe('recipe extraction into a recipes file', () => {
  it('leaves the file in corpus order when papers finish out of order (the library, not only the CLI)', async () => {
    const path = fileIn();
    const llm = byTitle();
    const generate = llm.generate.bind(llm);
    // d1 answers late, so d2 is appended first.
    llm.generate = async (request) => {
      if (request.messages[1]?.content.includes('TiO2')) await new Promise((r) => setTimeout(r, 50));
      return generate(request);
    };
    await extractRecipesInto(path, docs, llm, { manifest: manifestFor(), concurrency: 2 });
    // the model saw (and finished) d2 first
    expect(llm.calls.map((c) => /Title: (.*)/.exec(c.messages[1]?.content ?? '')?.[1])).toEqual([
      'Essay',
      'TiO2 films',
    ]);
    expect(
      lines(path)
        .slice(1)
        .map((l) => l.doc_id),
    ).toEqual(['d1', 'd2']);
  });

  it('writes the manifest first, records failures, resumes, and retries failures only when asked', async () => {
    const path = fileIn();
    const llm = new FakeLlm([recipeJson('TiO2'), 'not json', '{"material_name": 3}', 'still wrong']);
    const ticks: unknown[] = [];
    const first = await extractRecipesInto(path, docs, llm, {
      manifest: manifestFor(),
      concurrency: 1,
      onProgress: (outcome, done, total) =>
        ticks.push([outcome.ok, outcome.reason?.slice(0, 4), done, total]),
    });
    expect(first).toMatchObject({ extracted: 1, kept: 0, changed: [], failedEarlier: 0 });
    expect(first.failed.map((f) => f.docId)).toEqual(['d2']);
    expect(ticks).toEqual([
      [true, undefined, 1, 2],
      [false, 'd2: ', 2, 2],
    ]);
    // The very messages a dry run prices.
    expect(llm.calls[0]?.messages).toEqual(recipeMessages(docs[0]!));
    const [manifest, ...rows] = lines(path);
    expect(manifest).toMatchObject({
      citegeist_manifest: 1,
      kind: 'recipes',
      label: 'fake:scripted',
      settings: {
        model: 'fake:scripted',
        max_chars: 24000,
        temperature: 0,
        prompt: expect.stringMatching(/^[0-9a-f]{12}$/),
        corpus: '../corpus.sqlite',
      },
      inputs: {},
    });
    expect(rows).toEqual([
      {
        doc_id: 'd1',
        paper_sha256: paperSha256(docs[0]!),
        recipe: JSON.parse(recipeJson('TiO2')),
        error: null,
        cached: false,
      },
      {
        doc_id: 'd2',
        paper_sha256: paperSha256(docs[1]!),
        recipe: null,
        error: expect.any(String),
        cached: false,
      },
    ]);

    const again = await extractRecipesInto(path, docs, new FakeLlm([]), { manifest: manifestFor() });
    expect(again).toMatchObject({ extracted: 0, kept: 2, failedEarlier: 1, retried: [] });
    expect(again.failed).toEqual([
      { docId: 'd2', reason: expect.stringMatching(/invalid structured output/) },
    ]);

    const retryTicks: number[] = [];
    const retry = await extractRecipesInto(path, docs, new FakeLlm([recipeJson('none')]), {
      manifest: manifestFor(),
      retryFailed: true,
      onProgress: (_outcome, _done, total) => retryTicks.push(total),
    });
    expect(retryTicks).toEqual([1]); // the stored success is kept, not counted
    expect(retry).toMatchObject({ extracted: 1, kept: 1, retried: ['d2'], failed: [] });
    expect(lines(path).map((r) => r.doc_id ?? r.kind)).toEqual(['recipes', 'd1', 'd2']);
    expect([...readRecipes(path).recipes.keys()]).toEqual(['d1', 'd2']);
  });

  it('repairs a last line cut short by a kill and redoes that paper only', async () => {
    const path = fileIn();
    await extractRecipesInto(path, docs, byTitle(), { manifest: manifestFor(), concurrency: 1 });
    const text = readFileSync(path, 'utf8');
    const cut = text.slice(0, text.length - 40); // d2's line loses its end and its newline
    writeFileSync(path, cut);
    expect(readRecipes(path)).toMatchObject({ torn: true }); // retrieval skips it meanwhile
    const llm = byTitle();
    const resumed = await extractRecipesInto(path, docs, llm, { manifest: manifestFor() });
    expect(resumed).toMatchObject({ extracted: 1, kept: 1, failed: [] });
    expect(llm.calls).toHaveLength(1);
    expect(llm.calls[0]?.messages[1]?.content).toMatch(/Title: Essay/);
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it('refuses a recipes file made with another model or for another corpus, and leaves it untouched', async () => {
    const path = fileIn();
    await extractRecipesInto(path, docs, byTitle(), { manifest: manifestFor() });
    const before = readFileSync(path, 'utf8');
    const llm = byTitle();
    const error = await rejects(
      extractRecipesInto(path, docs, llm, { manifest: manifestFor('openai:gpt-4.1-mini') }),
    );
    expect(error.code).toBe('RUN_MANIFEST_MISMATCH');
    expect(error.problem).toMatch(/model: "fake:scripted" in the file, "openai:gpt-4.1-mini" now/);
    const corpus = await rejects(
      extractRecipesInto(path, docs, llm, { manifest: manifestFor('fake:scripted', '../other.sqlite') }),
    );
    expect(corpus.code).toBe('RUN_MANIFEST_MISMATCH');
    expect(corpus.problem).toMatch(/corpus: "..\/corpus.sqlite" in the file, "..\/other.sqlite" now/);
    expect(llm.calls).toHaveLength(0);
    expect(readFileSync(path, 'utf8')).toBe(before);
  });

  it('redoes a paper whose text changed since its recipe, and says which', async () => {
    const path = fileIn();
    await extractRecipesInto(path, docs, byTitle(), { manifest: manifestFor() });
    const changed = [doc('d1', 'TiO2 films', 'We made TiO2 at 450 C.'), docs[1]!];
    const llm = byTitle();
    const planned: string[][] = [];
    const summary = await extractRecipesInto(path, changed, llm, {
      manifest: manifestFor(),
      onPlan: (work) => planned.push(work.changed),
    });
    expect(planned).toEqual([['d1']]);
    expect(summary).toMatchObject({ extracted: 1, kept: 1, changed: ['d1'] });
    expect(llm.calls[0]?.messages[1]?.content).toMatch(/at 450 C/);
    const rows = lines(path).slice(1);
    // The redone paper's line is appended last, then put back in corpus order.
    expect(rows.map((r) => r.doc_id)).toEqual(['d1', 'd2']);
    expect(rows[0]?.paper_sha256).toBe(paperSha256(changed[0]!));
    // A paper no longer in the corpus keeps its line (no command drops rows it did not make now).
    const onlyD2 = await extractRecipesInto(path, [docs[1]!], new FakeLlm([]), { manifest: manifestFor() });
    expect(onlyD2).toMatchObject({ extracted: 0, kept: 1 });
    expect(lines(path)).toHaveLength(3);
  });

  it('refuses a second writer while one extracts (LOCK_HELD)', async () => {
    const path = fileIn();
    // The first writer takes the lock before its first model call, and holds it until it ends.
    const first = extractRecipesInto(path, docs, byTitle(), { manifest: manifestFor() });
    const llm = byTitle();
    const error = await rejects(extractRecipesInto(path, docs, llm, { manifest: manifestFor() }));
    expect(error.code).toBe('LOCK_HELD');
    expect(error.problem).toMatch(/citegeist recipes extract \(pid \d+/);
    expect(llm.calls).toHaveLength(0);
    expect(await first).toMatchObject({ extracted: 2 });
    expect(lines(path)).toHaveLength(3);
    // The lock went with the writer: the next run resumes.
    const lock = FileLock.acquire(path, 'test');
    lock.release();
  });
});

describe('readRecipes', () => {
  it('reads the current layout (manifest skipped) and the manifest-less layout of older versions', async () => {
    const path = fileIn();
    await extractRecipesInto(path, docs, byTitle(), { manifest: manifestFor() });
    const current = readRecipes(path);
    expect(current.manifest?.kind).toBe('recipes');
    expect(current.recipes.get('d1')).toEqual({
      recipe: JSON.parse(recipeJson('TiO2 films')),
      paperSha256: paperSha256(docs[0]!),
    });

    const old = fileIn();
    const legacy = [
      { docId: 'd1', ok: false, reason: 'bad json', model: 'ollama:qwen2.5:7b' },
      { docId: 'd2', ok: true, recipe: JSON.parse(recipeJson('Essay')), model: 'ollama:qwen2.5:7b' },
      { docId: 'd1', ok: true, recipe: JSON.parse(recipeJson('TiO2')), model: 'ollama:qwen2.5:7b' },
      { docId: 'd3', ok: false, reason: 'bad json', model: 'ollama:qwen2.5:7b' },
    ];
    writeFileSync(old, legacy.map((l) => `${JSON.stringify(l)}\n`).join(''));
    const read = readRecipes(old);
    expect(read.manifest).toBeNull();
    expect(read.failed).toBe(1);
    expect([...read.recipes]).toEqual([
      ['d2', { recipe: JSON.parse(recipeJson('Essay')), paperSha256: null }],
      ['d1', { recipe: JSON.parse(recipeJson('TiO2')), paperSha256: null }],
    ]);
    appendFileSync(old, '{"docId": 3}\n');
    expect(() => readRecipes(old)).toThrow(/line 5 is not a stored recipe/);
  });
});
