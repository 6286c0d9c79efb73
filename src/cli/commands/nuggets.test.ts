import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addNuggets, createNuggetBank, nuggetQuestion, writeNuggetBankFile } from '../../formats/index.js';
import {
  GET_CANONICAL_QUESTION_SYSTEM,
  IDENTIFY_PARAPHRASE_SYSTEM,
  PERSONALIZATION_SYSTEM,
  SUMMARIZE_SYSTEM,
  VITALITY_SYSTEM,
  WRITE_QA_PAIRS_SYSTEM,
} from '../../generate/nuggets/prompts/index.js';
import { corpusDocuments } from '../../grade/argue/index.js';
import { FileLock } from '../../io/index.js';
import { CorpusStore } from '../../store/index.js';
import { FakeOpenAiServer } from '../../testing/index.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

const assets = resolve(import.meta.dirname, '..', '..', '..', 'assets', 'demo');

async function cli(cwd: string, argv: string[]) {
  const { io, stdout, stderr } = memoryIo({ cwd });
  const code = await runCli(argv, io);
  return { code, out: stdout(), err: stderr() };
}

/** QA pairs the fake model writes per request (known from the request text in the QA prompt). */
const QA: Record<string, string> = {
  recommender:
    '[{"answer": "citations", "question": "What signal does SPECTER learn document relatedness from?"}, {"answer": "the citation graph", "question": "Which signal does SPECTER use to learn relatedness?"}, {"answer": "SciBERT", "question": "Which pretrained model does SPECTER start from?"}]',
  librarian:
    '[{"answer": "Semantic Scholar", "question": "Which search engine is the literature graph built for?"}]',
  behavioural: "I'm sorry, but I can't help with that request.",
};

function fakeModel() {
  return new FakeOpenAiServer({
    replies: (request) => {
      const [system, user] = [request.messages[0]!.content, request.messages[1]!.content];
      if (system === SUMMARIZE_SYSTEM) return { text: 'A summary of the paper.' };
      if (system === WRITE_QA_PAIRS_SYSTEM) {
        const key = Object.keys(QA).find((k) => user.includes(k));
        return { text: QA[key!]! };
      }
      if (system === IDENTIFY_PARAPHRASE_SYSTEM)
        return { text: '{"explanation": "same", "paraphrase": "YES"}' };
      if (system === GET_CANONICAL_QUESTION_SYSTEM)
        return { text: '{"index": 1, "explanation": "first is clear"}' };
      if (system.includes('several') || system.includes('numbered answer'))
        return { text: '[{"1": "YES", "2": "YES"}, "OR"]' };
      return { text: 'YES' };
    },
  });
}

describe('citegeist nuggets generate over the demo papers (fake OpenAI-compatible server)', () => {
  it('writes a bank per request whose references are passage ids that reports judge resolves', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'nuggets-cli-'));
    const corpus = join(cwd, 'corpus.sqlite');
    expect((await cli(cwd, ['ingest', join(assets, 'papers'), '--corpus', corpus])).code).toBe(0);
    const requests = join(assets, 'reports', 'requests.jsonl');
    const server = await fakeModel().start();
    try {
      const model = `openai-compatible:${server.url}/v1#fake-model`;
      const args = [
        'nuggets',
        'generate',
        '--requests',
        requests,
        '--corpus',
        corpus,
        '--model',
        model,
        '--out',
        'nuggets',
      ];
      const plan = await cli(cwd, [...args, '--dry-run']);
      expect(plan.code).toBe(0);
      // Three papers for each of the three requests; a paper past 3/4 of the context is cut into pieces.
      const docs = Number(/dry run: (\d+) documents/.exec(plan.out)![1]);
      expect(docs % 3).toBe(0);
      expect(docs).toBeGreaterThan(9);
      // Every paper is a document of each request, but summarised once.
      expect(plan.out).toMatch(new RegExp(`summary\\s+${docs / 3} calls`));
      expect(plan.out).toMatch(new RegExp(`qa\\s+${docs} calls`));
      expect(server.requests).toHaveLength(0);
      const run = await cli(cwd, args);
      expect(run.code, run.err).toBe(0);
      expect(run.out).toMatch(new RegExp(`specter: ${docs / 3} documents .* ${docs} QA pairs, 3 questions`));
      expect(run.out).toMatch(
        new RegExp(`crows: ${docs / 3} documents \\(${docs / 3} without usable QA pairs\\)`),
      );
      const refsOf = (out: string) => {
        const bank = JSON.parse(readFileSync(join(cwd, out, 'nuggets_specter.v3.json'), 'utf8'));
        return Object.values(bank.nugget_bank).flatMap((n) =>
          Object.values(
            (n as { answers: Record<string, { answer: string; references: { doc_id: string }[] }> }).answers,
          ).flatMap((a) => a.references.map((r) => ({ answer: a.answer, id: r.doc_id }))),
        );
      };
      const bank = JSON.parse(readFileSync(join(cwd, 'nuggets', 'nuggets_specter.v3.json'), 'utf8'));
      const refs = refsOf('nuggets');
      expect(refs.length).toBeGreaterThan(0);
      // A passage of the paper the answer came from; the paper itself when none of its passages
      // shares a word with the answer (the crow paper, asked about SPECTER).
      for (const r of refs) expect(r.id).toMatch(/^[\w.-]+(#\d+)?$/);
      expect(refs.filter((r) => r.id.includes('#')).length).toBeGreaterThanOrEqual(refs.length / 2);
      expect(bank.creator[0]).toMatchObject({
        is_human: false,
        llm_model: 'fake-model',
        llm_backend: 'openai-compatible',
      });
      expect(existsSync(join(cwd, 'nuggets', 'generate.meta.json'))).toBe(true);
      // A rerun resumes: no model call, same bank.
      const calls = server.requests.length;
      const again = await cli(cwd, args);
      expect(again.code).toBe(0);
      expect(server.requests.length).toBe(calls);
      const after = await cli(cwd, [...args, '--dry-run']);
      expect(after.out).toMatch(/dry run: 0 documents/);
      expect(after.out).toMatch(/total\s+0 calls/);
      // The bank is ready for the report evaluation: every reference resolves with the judge's own
      // document source, over the index `citegeist index` builds (bibliography left out), and a
      // run with the index present cites the same passages.
      expect((await cli(cwd, ['index', '--corpus', corpus])).code).toBe(0);
      const store = CorpusStore.open(corpus, { readonly: true });
      try {
        const source = corpusDocuments(store, join(cwd, 'index'));
        for (const r of refs) {
          const doc = source.get(r.id);
          expect(doc, r.id).not.toBeNull();
          // The SPECTER paper's passage for "SciBERT" is one that names it.
          if (r.answer === 'SciBERT' && r.id.startsWith('2020.acl-main.207#'))
            expect(doc!.text).toContain('SciBERT');
        }
      } finally {
        store.close();
      }
      const indexed = await cli(cwd, [...args.slice(0, -1), 'nuggets-indexed']);
      expect(indexed.code, indexed.err).toBe(0);
      expect(refsOf('nuggets-indexed')).toEqual(refs);
      const gen = await cli(cwd, [
        'reports',
        'generate',
        '--requests',
        requests,
        '--corpus',
        corpus,
        '--out',
        'run.jsonl',
      ]);
      expect(gen.code, gen.err).toBe(0);
      const judged = await cli(cwd, [
        'reports',
        'judge',
        '--runs',
        'run.jsonl',
        '--nuggets',
        'nuggets',
        '--requests',
        requests,
        '--docs',
        corpus,
        '--judge',
        'lexical',
        '--out',
        'judgments.jsonl',
      ]);
      // The crows bank is written but empty (the model refused every QA call): judged all the same.
      expect(judged.code, judged.err).toBe(0);
      expect(judged.out).toMatch(/judged 3 reports .* 0 failed judgments/);
      const crows = JSON.parse(readFileSync(join(cwd, 'nuggets', 'nuggets_crows.v3.json'), 'utf8'));
      expect(crows.nugget_bank).toEqual({});
    } finally {
      await server.close();
    }
  });
});

describe('citegeist nuggets generate over TREC-style documents', () => {
  it('reads the released layout <request>/<doc>.json (language codes named) and a JSONL; refuses to run without a model', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'nuggets-docs-'));
    writeFileSync(
      join(cwd, 'requests.jsonl'),
      [
        '{"request_id": "r1", "title": "Hinton", "backround": "I read news.", "problem_statement": "Why did Hinton leave Google?"}',
        '{"request_id": "r2", "title": "none"}',
      ].join('\n'),
    );
    mkdirSync(join(cwd, 'docs', 'r1'), { recursive: true });
    writeFileSync(
      join(cwd, 'docs', 'r1', 'd1.json'),
      JSON.stringify({ text: '辛顿离开了谷歌。', language: 'zho' }),
    );
    writeFileSync(join(cwd, 'docs', 'r1', 'd2.txt'), 'Hinton left Google in 2023 to speak freely.');
    const server = await new FakeOpenAiServer({
      replies: (request) => {
        const [system, user] = [request.messages[0]!.content, request.messages[1]!.content];
        if (system === SUMMARIZE_SYSTEM)
          return { text: user.includes('Chinese') ? '辛顿离开了谷歌。' : 'Hinton left Google in 2023.' };
        if (system === WRITE_QA_PAIRS_SYSTEM)
          return { text: '[{"answer": "to speak freely", "question": "Why did Hinton leave Google?"}]' };
        return { text: 'YES' };
      },
    }).start();
    try {
      const model = `openai-compatible:${server.url}/v1#m`;
      const none = await cli(cwd, [
        'nuggets',
        'generate',
        '--requests',
        'requests.jsonl',
        '--docs',
        'docs',
        '--out',
        'out',
      ]);
      expect(none.err).toMatch(/MODEL_REQUIRED/);
      const r = await cli(cwd, [
        '--json',
        'nuggets',
        'generate',
        '--requests',
        'requests.jsonl',
        '--docs',
        'docs',
        '--model',
        model,
        '--out',
        'out',
      ]);
      // r2 has no documents: skipped and reported, exit code 1.
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/skipped request r2: no documents/);
      const summary = JSON.parse(r.out);
      expect(summary.requests[0]).toMatchObject({ requestId: 'r1', blockedAt: null, nuggets: 1 });
      const summaries = server.requests.filter((q) => q.messages[0]!.content === SUMMARIZE_SYSTEM);
      expect(summaries.some((q) => q.messages[1]!.content.includes('The document is in Chinese'))).toBe(true);
      const bank = JSON.parse(readFileSync(join(cwd, 'out', 'nuggets_r1.v3.json'), 'utf8'));
      expect(bank.full_query).toEqual({
        title: 'Hinton',
        background: 'I read news.',
        problem_statement: 'Why did Hinton leave Google?',
      });
      expect(bank.nugget_bank['Why did Hinton leave Google?'].metadata.num_paraphrases_total).toBe(2);
      const qa = server.requests.find((q) => q.messages[0]!.content === WRITE_QA_PAIRS_SYSTEM)!;
      expect(qa.messages[1]!.content).toContain('I read news.\nWhy did Hinton leave Google?');
    } finally {
      await server.close();
    }
  });
});

describe('nuggets generate: run manifest, resume checks and the folder lock', () => {
  it('a resume with other settings or inputs is refused naming what differs; one writer per folder; banks it did not write are not replaced', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'nuggets-manifest-'));
    writeFileSync(
      join(cwd, 'requests.jsonl'),
      '{"request_id": "r1", "title": "Hinton", "background": "I read news.", "problem_statement": "Why did Hinton leave Google?"}\n',
    );
    const docs = (text: string) =>
      writeFileSync(join(cwd, 'docs.jsonl'), `${JSON.stringify({ request_id: 'r1', doc_id: 'd1', text })}\n`);
    docs('Hinton left Google in 2023 to speak freely.');
    const server = await new FakeOpenAiServer({
      replies: (request) =>
        request.messages[0]!.content === WRITE_QA_PAIRS_SYSTEM
          ? { text: '[{"answer": "to speak freely", "question": "Why did Hinton leave Google?"}]' }
          : { text: 'YES' },
    }).start();
    const model = `openai-compatible:${server.url}/v1#m`;
    try {
      const args = (...extra: string[]) => [
        'nuggets',
        'generate',
        '--requests',
        'requests.jsonl',
        '--docs',
        'docs.jsonl',
        '--model',
        model,
        '--out',
        'out',
        ...extra,
      ];
      // A dry run needs no API key and writes nothing (not even the response cache).
      const priced = await cli(cwd, [
        ...args('--dry-run').slice(0, 6),
        '--model',
        'openai:gpt-4.1-mini',
        '--out',
        'dry',
        '--dry-run',
      ]);
      expect(priced.code, priced.err).toBe(0);
      expect(priced.out).toMatch(/total +\d+ calls .*\$0\.\d{4}/);
      expect(readdirSync(cwd).sort()).toEqual(['docs.jsonl', 'requests.jsonl']);
      const first = await cli(cwd, args());
      expect(first.code, first.err).toBe(0);
      const bankPath = join(cwd, 'out', 'nuggets_r1.v3.json');
      const bank = readFileSync(bankPath, 'utf8');
      const meta = JSON.parse(readFileSync(join(cwd, 'out', 'generate.meta.json'), 'utf8'));
      expect(meta).toMatchObject({
        citegeist_manifest: 1,
        kind: 'nuggets',
        label: model,
        settings: { model, threshold: 0.9, embedder: 'default', english_only: true },
        inputs: { requests: { path: 'requests.jsonl', count: 1 }, documents: { count: 1 } },
      });
      expect(meta.settings.prompts).toMatch(/^[0-9a-f]{12}$/);
      // The state file starts with the same manifest.
      const state = readFileSync(join(cwd, 'out', '.state', 'generate.jsonl'), 'utf8').split('\n');
      expect(JSON.parse(state[0]!)).toEqual(meta);
      // The creator's date is the first run's, so a resume writes the same bytes.
      expect(JSON.parse(bank).creator[0].creation_date).toBe(meta.created_at.replace('Z', '+00:00'));

      const calls = server.requests.length;
      const other = await cli(cwd, args('--threshold', '0.8'));
      expect(other.code).toBe(1);
      expect(other.err).toMatch(/RUN_MANIFEST_MISMATCH/);
      expect(other.err).toMatch(/threshold: 0\.9 in the file, 0\.8 now/);
      expect(other.err).toMatch(/label: ".+ in the file, ".+ now/);
      const dry = await cli(cwd, args('--threshold', '0.8', '--dry-run'));
      expect(dry.err).toMatch(/RUN_MANIFEST_MISMATCH/);
      docs('Hinton left Google in 2023.');
      const changed = await cli(cwd, args());
      expect(changed.err).toMatch(/RUN_MANIFEST_MISMATCH[\s\S]*documents: content sha256/);
      expect(server.requests.length).toBe(calls);
      expect(readFileSync(bankPath, 'utf8')).toBe(bank);
      docs('Hinton left Google in 2023 to speak freely.');

      // A bank changed since this run wrote it (scored in place, edited) is kept, not overwritten.
      const edited = bank.replace('"format_version"', '"edited": true,\n  "format_version"');
      expect(edited).not.toBe(bank);
      writeFileSync(bankPath, edited);
      const keep = await cli(cwd, args());
      expect(keep.code, keep.err).toBe(0);
      expect(keep.out).toMatch(/kept as they are: nuggets_r1\.v3\.json/);
      expect(readFileSync(bankPath, 'utf8')).toBe(edited);
      expect(server.requests.length).toBe(calls);
      writeFileSync(bankPath, bank);

      // A second writer of the folder is refused while the first holds it.
      const lock = FileLock.acquire(
        join(cwd, 'out', '.state', 'generate.jsonl'),
        'citegeist nuggets generate',
      );
      try {
        const second = await cli(cwd, args());
        expect(second.code).toBe(1);
        expect(second.err).toMatch(/LOCK_HELD/);
      } finally {
        lock.release();
      }
      // Without its state, the folder's meta file still says which run made the banks.
      rmSync(join(cwd, 'out', '.state'), { recursive: true });
      const gone = await cli(cwd, args('--embedder', 'hashed'));
      expect(gone.err).toMatch(
        /RUN_MANIFEST_MISMATCH[\s\S]*generate\.meta\.json[\s\S]*embedder: "default" in the file, "hashed" now/,
      );
      const redo = await cli(cwd, args());
      expect(redo.code, redo.err).toBe(0);
      expect(readFileSync(bankPath, 'utf8')).toBe(bank);
      expect(server.requests.length).toBe(calls);

      // A folder of banks no generate run wrote is not written into.
      mkdirSync(join(cwd, 'released'));
      writeFileSync(join(cwd, 'released', 'nuggets_r1.v3.json'), bank);
      const foreign = await cli(cwd, [...args().slice(0, -1), 'released']);
      expect(foreign.err).toMatch(/RUN_FILE_FOREIGN/);
      expect(readFileSync(join(cwd, 'released', 'nuggets_r1.v3.json'), 'utf8')).toBe(bank);
    } finally {
      await server.close();
    }
  });
});

describe('nuggets score-quality: run manifest in place', () => {
  it('scores banks in place, resumes without a call to the same bytes, refuses other settings', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'nuggets-quality-cli-'));
    mkdirSync(join(cwd, 'banks'));
    const bank = createNuggetBank({
      query_id: 'r1',
      title_query: 'crows',
      full_query: { background: 'I study birds.', problem_statement: 'Where do crows live?' },
    });
    addNuggets(bank, [
      nuggetQuestion({ query_id: 'r1', question: 'Where do the crows live?', answers: ['Vienna'] }),
      nuggetQuestion({ query_id: 'r1', question: 'How large are the flocks?', answers: ['40'] }),
    ]);
    writeNuggetBankFile(join(cwd, 'banks', 'nuggets_r1.v3.json'), bank);
    const server = await new FakeOpenAiServer({
      replies: (request) => {
        const system = request.messages[0]!.content;
        if (system === VITALITY_SYSTEM) return { text: '{"vitality": "VITAL"}' };
        if (system === PERSONALIZATION_SYSTEM)
          return {
            text: '{"goal_match": 1, "background_match": 0.8, "role_match": 0, "communication_match": 1, "scope_match": 1, "overall": 4}',
          };
        return {
          text: '{"fluency": 5, "clarity": 4, "ambiguity": 1, "relevance": 5, "incompleteness": 1, "assumptiveness": 1, "multifaceted": 2, "knowledge_intensiveness": 3, "subjectiveness": 1, "reasoning_intensiveness": 2}',
        };
      },
    }).start();
    try {
      const args = (...extra: string[]) => [
        'nuggets',
        'score-quality',
        '--bank',
        'banks',
        '--model',
        `openai-compatible:${server.url}/v1#judge`,
        ...extra,
      ];
      const first = await cli(cwd, args());
      expect(first.code, first.err).toBe(0);
      expect(server.requests).toHaveLength(6);
      const scored = readFileSync(join(cwd, 'banks', 'nuggets_r1.v3.json'), 'utf8');
      expect(JSON.parse(scored).nugget_bank['Where do the crows live?'].metadata.quality.vitality).toBe(
        'VITAL',
      );
      const meta = JSON.parse(readFileSync(join(cwd, 'banks', 'score-quality.meta.json'), 'utf8'));
      expect(meta).toMatchObject({ kind: 'nugget-quality', settings: { coverage_cosine: 0.8 } });
      // The banks now hold scores; what is judged did not change, so the run resumes.
      const again = await cli(cwd, args());
      expect(again.code, again.err).toBe(0);
      expect(server.requests).toHaveLength(6);
      expect(readFileSync(join(cwd, 'banks', 'nuggets_r1.v3.json'), 'utf8')).toBe(scored);
      const other = await cli(cwd, args('--coverage-cosine', '0.7'));
      expect(other.code).toBe(1);
      expect(other.err).toMatch(/RUN_MANIFEST_MISMATCH[\s\S]*coverage_cosine: 0\.8 in the file, 0\.7 now/);
      const out = await cli(cwd, args('--coverage-cosine', '0.7', '--out', 'rescored'));
      expect(out.code, out.err).toBe(0);
      expect(server.requests).toHaveLength(6);
      // Another folder's banks are not overwritten by scored copies.
      mkdirSync(join(cwd, 'other'));
      writeFileSync(join(cwd, 'other', 'nuggets_r1.v3.json'), scored);
      const foreign = await cli(cwd, args('--out', 'other'));
      expect(foreign.err).toMatch(/RUN_FILE_FOREIGN[\s\S]*nuggets_r1\.v3\.json/);
      expect(readdirSync(join(cwd, 'other'))).toEqual(['nuggets_r1.v3.json']);
    } finally {
      await server.close();
    }
  });
});

describe('citegeist nuggets select, train-selector, convert, stats', () => {
  /** A bank of n nuggets whose quality differs in reading level only. */
  function writeBank(dir: string, id: string, n: number, human: boolean) {
    const nuggets = Object.fromEntries(
      Array.from({ length: n }, (_, i) => {
        const q = `${id} ${human ? 'human' : 'generated'} question ${i}?`;
        const level = human ? 6 + (i % 3) : 12 + (i % 4);
        return [
          q,
          {
            question: q,
            answers: { a: { answer: 'a' } },
            query_id: id,
            metadata: {
              num_paraphrases_total: n - i,
              num_answers: 1 + (i % 2),
              quality: {
                reading_level: level,
                complexity: 2,
                vitality: i % 5 ? 'VITAL' : 'OKAY',
                personalization: {
                  goal_match: 1,
                  background_match: 0.5,
                  role_match: 0,
                  communication_match: 0.8,
                  scope_match: 0.8,
                  overall: 4,
                },
                general_qualities: {
                  fluency: 5,
                  clarity: 5,
                  ambiguity: 2,
                  relevance: 4,
                  incompleteness: 2,
                  assumptiveness: 2,
                  multifaceted: 4,
                  knowledge_intensiveness: 2,
                  subjectiveness: 4,
                  reasoning_intensiveness: 4,
                },
              },
            },
          },
        ];
      }),
    );
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, `nuggets_${id}.v3.json`),
      JSON.stringify({ query_id: id, title_query: id, format_version: 'v3', nugget_bank: nuggets }, null, 2),
    );
  }

  it('trains a selector and selects by criteria, hybrid and sample; converts and counts', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'nuggets-select-'));
    for (const id of ['r1', 'r2']) {
      writeBank(join(cwd, 'human'), id, 6, true);
      writeBank(join(cwd, 'generated'), id, 30, false);
    }
    const trained = await cli(cwd, [
      'nuggets',
      'train-selector',
      '--positive',
      'human',
      '--negative',
      'generated',
      '--out',
      'sel.json',
    ]);
    expect(trained.code, trained.err).toBe(0);
    expect(trained.out).toMatch(/trained on 12 positive and 60 negative nuggets of 2 requests/);
    const selector = JSON.parse(readFileSync(join(cwd, 'sel.json'), 'utf8'));
    // Lower reading level marks the human nuggets: its weight must be negative.
    expect(selector.weights[0]).toBeLessThan(0);
    const crit = await cli(cwd, [
      'nuggets',
      'select',
      '--bank',
      'generated',
      '--method',
      'criteria',
      '--selector',
      'sel.json',
      '--top-k',
      '5',
      '--out',
      'crit',
    ]);
    expect(crit.code, crit.err).toBe(0);
    const chosen = JSON.parse(readFileSync(join(cwd, 'crit', 'nuggets_r1.v3.json'), 'utf8'));
    const levels = Object.values(chosen.nugget_bank).map(
      (n) => (n as { metadata: { quality: { reading_level: number } } }).metadata.quality.reading_level,
    );
    expect(levels.every((l) => l <= 13)).toBe(true);
    const hybrid = await cli(cwd, [
      'nuggets',
      'select',
      '--bank',
      'generated',
      '--method',
      'hybrid',
      '--selector',
      'sel.json',
      '--top-k',
      '8',
      '--out',
      'hyb',
    ]);
    expect(hybrid.out).toMatch(/r1: 8 of 30 \(6 most-common, 2 by criteria\)/);
    const sample = await cli(cwd, [
      'nuggets',
      'select',
      '--bank',
      'generated',
      '--method',
      'sample',
      '--top-k',
      '3',
      '--out',
      'smp',
    ]);
    expect(sample.code).toBe(0);
    expect(JSON.parse(readFileSync(join(cwd, 'smp', 'select.meta.json'), 'utf8'))).toMatchObject({
      seed: 1234,
      top_k: 3,
    });
    const conv = await cli(cwd, [
      'nuggets',
      'convert',
      '--in',
      'smp',
      '--to',
      'neuclir',
      '--out',
      'smp.jsonl',
    ]);
    expect(conv.code, conv.err).toBe(0);
    expect(readFileSync(join(cwd, 'smp.jsonl'), 'utf8').split('\n').filter(Boolean)).toHaveLength(2);
    const stats = await cli(cwd, ['nuggets', 'stats', '--bank', 'smp']);
    expect(stats.out).toMatch(/nuggets_r1.v3.json \(r1\): 3 nuggets \(3 questions, 0 claims\), 3 answers/);
    expect(readdirSync(join(cwd, 'smp'))).toContain('select.meta.json');
  });

  it('select and convert write one result per folder, say how it was made, and replace only their own files', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'nuggets-result-'));
    for (const id of ['r1', 'r2']) writeBank(join(cwd, 'generated'), id, 30, false);
    writeBank(join(cwd, 'only-r1'), 'r1', 30, false);
    writeBank(join(cwd, 'unscored'), 'r1', 30, false);
    const plain = join(cwd, 'unscored', 'nuggets_r1.v3.json');
    const bank = JSON.parse(readFileSync(plain, 'utf8'));
    for (const n of Object.values(bank.nugget_bank))
      delete (n as { metadata: { quality?: unknown } }).metadata.quality;
    writeFileSync(plain, JSON.stringify(bank));
    const select = (bank: string, out: string, ...extra: string[]) =>
      cli(cwd, [
        'nuggets',
        'select',
        '--bank',
        bank,
        '--method',
        'sample',
        '--top-k',
        '3',
        '--out',
        out,
        ...extra,
      ]);

    const first = await select('generated', 'smp');
    expect(first.code, first.err).toBe(0);
    expect(first.out).toMatch(/how: smp\/select\.meta\.json/);
    const meta = JSON.parse(readFileSync(join(cwd, 'smp', 'select.meta.json'), 'utf8'));
    expect(meta).toMatchObject({
      method: 'dogmatiq-select-sample',
      keep_sub_nuggets: false,
      files: ['nuggets_r1.v3.json', 'nuggets_r2.v3.json'],
    });
    expect(meta.inputs_sha256.generated).toMatch(/^[0-9a-f]{64}$/);
    // A new selection replaces the folder's previous one whole: r2 of the first is not left behind.
    expect((await select('only-r1', 'smp')).code).toBe(0);
    expect(readdirSync(join(cwd, 'smp')).sort()).toEqual(['nuggets_r1.v3.json', 'select.meta.json']);
    // Banks select did not write are neither replaced nor mixed with a selection.
    writeBank(join(cwd, 'smp'), 'r9', 2, true);
    const before = readFileSync(join(cwd, 'smp', 'nuggets_r1.v3.json'), 'utf8');
    const foreign = await select('generated', 'smp');
    expect(foreign.code).toBe(1);
    expect(foreign.err).toMatch(/RUN_FILE_FOREIGN[\s\S]*nuggets_r9\.v3\.json/);
    expect(readFileSync(join(cwd, 'smp', 'nuggets_r1.v3.json'), 'utf8')).toBe(before);
    expect((await select('generated', 'generated')).err).toMatch(/CONFLICTING_OPTIONS/);
    // Nothing is written when a bank cannot be ranked.
    const trained = await cli(cwd, [
      'nuggets',
      'train-selector',
      '--positive',
      'generated',
      '--negative',
      'only-r1',
      '--out',
      'sel.json',
    ]);
    expect(trained.code, trained.err).toBe(0);
    const unranked = await cli(cwd, [
      'nuggets',
      'select',
      '--bank',
      'unscored',
      '--method',
      'criteria',
      '--selector',
      'sel.json',
      '--out',
      'crit',
    ]);
    expect(unranked.err).toMatch(/NUGGETS_NOT_SCORED[\s\S]*request "r1"/);
    expect(existsSync(join(cwd, 'crit'))).toBe(false);
    expect(
      (await cli(cwd, ['nuggets', 'select', '--bank', 'generated', '--method', 'hybrid', '--out', 'h'])).err,
    ).toMatch(/OPTION_REQUIRED[\s\S]*no --selector/);

    const convert = (input: string, to: string, out: string) =>
      cli(cwd, ['nuggets', 'convert', '--in', input, '--to', to, '--out', out]);
    const v3 = await convert('generated', 'v3', 'conv');
    expect(v3.code, v3.err).toBe(0);
    expect(JSON.parse(readFileSync(join(cwd, 'conv', 'convert.meta.json'), 'utf8'))).toMatchObject({
      command: 'nuggets convert',
      to: 'v3',
      from: ['v3'],
      requests: 2,
      files: ['nuggets_r1.v3.json', 'nuggets_r2.v3.json'],
    });
    expect((await convert('generated', 'v3', 'generated')).err).toMatch(/CONFLICTING_OPTIONS/);
    expect((await convert('generated', 'v3', 'smp')).err).toMatch(/RUN_FILE_FOREIGN/);
    const jsonl = await convert('generated', 'neuclir', 'n.jsonl');
    expect(jsonl.out).toMatch(/how: n\.jsonl\.meta\.json/);
    expect(JSON.parse(readFileSync(join(cwd, 'n.jsonl.meta.json'), 'utf8'))).toMatchObject({ to: 'neuclir' });
    const again = readFileSync(join(cwd, 'n.jsonl'), 'utf8');
    expect((await convert('n.jsonl', 'neuclir', 'n.jsonl')).err).toMatch(/CONFLICTING_OPTIONS/);
    expect(readFileSync(join(cwd, 'n.jsonl'), 'utf8')).toBe(again);
  });

  it('refuses criteria selection with a selector file that is not one', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'nuggets-select-'));
    writeBank(join(cwd, 'b'), 'r1', 3, false);
    writeFileSync(join(cwd, 'bad.json'), '{"format": "other"}');
    const r = await cli(cwd, [
      'nuggets',
      'select',
      '--bank',
      'b',
      '--method',
      'criteria',
      '--selector',
      'bad.json',
      '--out',
      'o',
    ]);
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/INVALID_INPUT/);
  });
});
