import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createManifest } from '../../core/index.js';
import type { ReportRequest } from '../../formats/index.js';
import type { GenerateRequest } from '../../llm/index.js';
import { FakeLlm } from '../../testing/index.js';
import { NuggetPipeline, type RequestInput } from './nugget-pipeline.js';
import { GET_CANONICAL_QUESTION_SYSTEM } from './prompts/canonical-prompt.js';
import { IDENTIFY_PARAPHRASE_SYSTEM } from './prompts/paraphrase-prompt.js';
import { WRITE_QA_PAIRS_SYSTEM } from './prompts/qa-pairs-prompt.js';
import { SUMMARIZE_SYSTEM } from './prompts/summarize-prompt.js';
import {
  AGGREGATE_ANSWERS_SYSTEM_MULTI,
  AGGREGATE_ANSWERS_SYSTEM_SINGLE,
} from './prompts/validate-answers-prompt.js';
import { StepState } from './step-log.js';

const request: ReportRequest = {
  id: 'crows',
  title: 'Urban crows',
  background: 'I study corvids.',
  problemStatement: 'Where do the crows live and when was the study published?',
  limit: null,
  raw: {},
  where: 'requests.jsonl:1',
};

const DOCS = {
  d1: '[{"answer": "Vienna", "question": "Where do the crows live?"}, {"answer": "unknown", "question": "How old is the oldest crow?"}]',
  d2: 'Here you are:\n```json\n[{"answer": "vienna", "question": "Where do the crows live?"}, {"answer": "in the Vienna zoo", "question": "In which city do the crows live?"}, {"answer": "2019", "question": "When was the study published?"}]\n```',
  d3: 'Sure! The pairs are: none really.',
  d4: "I'm sorry, I can't help with that.",
  d5: '[{"answer": "維也納", "question": "Where do the crows live?"}]',
};
const input: RequestInput = {
  request,
  docs: Object.keys(DOCS).map((id) => ({
    id,
    text: `text of ${id}`,
    language: id === 'd5' ? 'Chinese' : null,
  })),
};

/** The scripted reply to a request, by step (read from the system prompt). */
function reply(r: GenerateRequest): string {
  const [system, user] = [r.messages[0]!.content, r.messages[1]!.content];
  if (system === SUMMARIZE_SYSTEM) return `SUMMARY(${/text of (d\d)/.exec(user)![1]})`;
  if (system === WRITE_QA_PAIRS_SYSTEM) return DOCS[/SUMMARY\((d\d)\)/.exec(user)![1] as keyof typeof DOCS];
  if (system === IDENTIFY_PARAPHRASE_SYSTEM)
    return '{"explanation": "both ask for the city", "paraphrase": "YES"}';
  if (system === GET_CANONICAL_QUESTION_SYSTEM) return '{"index": 2, "explanation": "names the city"}';
  if (system === AGGREGATE_ANSWERS_SYSTEM_MULTI) return '[{"1": "YES", "2": "no "}, "and"]';
  if (system === AGGREGATE_ANSWERS_SYSTEM_SINGLE) return 'NO.';
  throw new Error(`unexpected prompt: ${system.slice(0, 40)}`);
}

/** A model replying by `reply`; `fail` makes matching calls fail as a network error would. */
function model(fail: (r: GenerateRequest) => boolean = () => false) {
  return new FakeLlm((r) => (fail(r) ? { fail: 'HTTP 503' } : reply(r)));
}

/** The two crow-city questions are near (cos 0.95); the others far from everything. */
const VECTORS: Record<string, number[]> = {
  'Where do the crows live?': [1, 0, 0, 0],
  'In which city do the crows live?': [0.95, Math.sqrt(1 - 0.95 ** 2), 0, 0],
  'How old is the oldest crow?': [0, 0, 1, 0],
  'When was the study published?': [0, 0, 0, 1],
};
const embed = async (texts: string[]) => texts.map((t) => Float32Array.from(VECTORS[t]!));
const creator = { is_human: false, llm_model: 'fake:scripted', creation_date: '2026-01-01T00:00:00+00:00' };

const manifest = createManifest({
  kind: 'nuggets',
  defaultLabel: 'fake:scripted',
  settings: { model: 'fake:scripted' },
  inputs: {},
  version: 'test',
});

/** A pipeline over the folder's state (opened as `nuggets generate` opens it); `close` releases it. */
function pipeline(outDir: string, llm: FakeLlm) {
  const state = StepState.open({ dir: outDir, name: 'generate', manifest, command: 'test', ownsBanks: true });
  return Object.assign(new NuggetPipeline({ llm, embed, outDir, creator, state }), {
    close: () => state.close(),
  });
}

describe('NuggetPipeline (DoGMaTiQ steps 1–3 with a scripted model)', () => {
  it('generates the bank: exact merges, verified paraphrases, canonical choice, cleaning, validation', async () => {
    const out = mkdtempSync(join(tmpdir(), 'nuggets-'));
    const p = pipeline(out, model());
    const [outcome] = await p.run([input]);
    p.close();
    expect(outcome).toMatchObject({
      blockedAt: null,
      documents: 5,
      documentsMalformed: 2,
      nuggets: 1,
      unanswerable: 1,
      droppedByModel: 1,
      merge: {
        qa_pairs: 5,
        non_english_skipped: 1,
        unique_questions: 4,
        candidate_pairs: 1,
        verified_pairs: 1,
        clusters: 3,
        multi_clusters: 1,
      },
    });
    const bank = JSON.parse(readFileSync(join(out, 'nuggets_crows.v3.json'), 'utf8'));
    expect(Object.keys(bank)).toEqual([
      'query_id',
      'title_query',
      'full_query',
      'format_version',
      'nugget_bank',
      'creator',
    ]);
    const nugget = bank.nugget_bank['In which city do the crows live?'];
    expect(Object.keys(nugget)).toEqual([
      'question',
      'answers',
      'question_id',
      'aggregator_type',
      'query_id',
      'creator',
      'metadata',
    ]);
    // "vienna" merged into "Vienna" (references deduplicated by doc id); answer 2 judged NO; AND.
    expect(nugget.answers).toEqual({
      Vienna: { answer: 'Vienna', references: [{ doc_id: 'd1' }, { doc_id: 'd2' }] },
    });
    expect(nugget.aggregator_type).toBe('AND');
    expect(nugget.metadata).toEqual({
      paraphrases: ['Where do the crows live?', 'In which city do the crows live?'],
      paraphrase_references: [[{ doc_id: 'd1' }, { doc_id: 'd2' }], [{ doc_id: 'd2' }]],
      canonical_explanation: 'names the city',
      num_paraphrases_unique: 2,
      num_paraphrases_total: 3,
      num_answers: 1,
    });
    // Step 2 kept every answer; the side bank holds the question whose only answer was "unknown".
    const merged = JSON.parse(readFileSync(join(out, 'merged', 'nuggets_crows.v3.json'), 'utf8'));
    expect(Object.keys(merged.nugget_bank)).toEqual([
      'In which city do the crows live?',
      'How old is the oldest crow?',
      'When was the study published?',
    ]);
    expect(Object.keys(merged.nugget_bank['In which city do the crows live?'].answers)).toEqual([
      'Vienna',
      'vienna',
      'in the Vienna zoo',
    ]);
    const side = JSON.parse(
      readFileSync(join(out, 'potentially_unanswerable', 'nuggets_crows.v3.json'), 'utf8'),
    );
    expect(Object.keys(side.nugget_bank)).toEqual(['How old is the oldest crow?']);
    const judgments = JSON.parse(readFileSync(join(out, 'judgments', 'paraphrase_judgments.json'), 'utf8'));
    expect(judgments.crows).toEqual([
      expect.objectContaining({
        q1: 'Where do the crows live?',
        q2: 'In which city do the crows live?',
        paraphrase: 'YES',
      }),
    ]);
    const qa = readFileSync(join(out, '.state', 'generate.jsonl'), 'utf8');
    expect(qa).toContain('"status":"refused"');
    expect(qa).toContain('"status":"malformed"');
  });

  it('resumes without a model call and writes the same bytes', async () => {
    const out = mkdtempSync(join(tmpdir(), 'nuggets-'));
    const first = pipeline(out, model());
    await first.run([input]);
    first.close();
    const before = readFileSync(join(out, 'nuggets_crows.v3.json'), 'utf8');
    const silent = new FakeLlm([]);
    const again = pipeline(out, silent);
    const [outcome] = await again.run([input]);
    again.close();
    expect(silent.calls).toHaveLength(0);
    expect(outcome!.blockedAt).toBeNull();
    expect(readFileSync(join(out, 'nuggets_crows.v3.json'), 'utf8')).toBe(before);
  });

  it('a failed call blocks the request at its step; a rerun redoes only what failed', async () => {
    const out = mkdtempSync(join(tmpdir(), 'nuggets-'));
    const flaky = model((r) => r.messages[1]!.content.includes('text of d2'));
    const first = pipeline(out, flaky);
    const [blocked] = await first.run([input]);
    first.close();
    expect(blocked).toMatchObject({ blockedAt: 'qa', failures: ['document d2: summary: HTTP 503'] });
    expect(existsSync(join(out, 'nuggets_crows.v3.json'))).toBe(false);
    // Paraphrase verification fails next time: blocked at step 2, step 1 not redone but for d2.
    const pairsDown = model((r) => r.messages[0]!.content === IDENTIFY_PARAPHRASE_SYSTEM);
    const second = pipeline(out, pairsDown);
    const [again] = await second.run([input]);
    second.close();
    expect(again!.blockedAt).toBe('paraphrases');
    // What a dry run would now count: the one pair, at most one canonical question, three validations.
    const planner = pipeline(out, new FakeLlm([]));
    const later = await planner.plannedLaterCalls([input]);
    planner.close();
    expect(later.requests).toBe(1);
    expect(later.calls.map((c) => c.step)).toEqual([
      'pair',
      'canonical',
      'validation',
      'validation',
      'validation',
    ]);
    expect(pairsDown.calls.filter((c) => c.messages[0]!.content === SUMMARIZE_SYSTEM)).toHaveLength(1);
    const healthy = model();
    const third = pipeline(out, healthy);
    const [done] = await third.run([input]);
    third.close();
    expect(done!.blockedAt).toBeNull();
    // Only the paraphrase pair, the canonical question and the two validations were still to do.
    expect(healthy.calls.map((c) => c.messages[0]!.content)).toEqual([
      IDENTIFY_PARAPHRASE_SYSTEM,
      GET_CANONICAL_QUESTION_SYSTEM,
      AGGREGATE_ANSWERS_SYSTEM_MULTI,
      AGGREGATE_ANSWERS_SYSTEM_SINGLE,
    ]);
  });

  it('summarises a document shared by two requests once', async () => {
    const out = mkdtempSync(join(tmpdir(), 'nuggets-'));
    const llm = model();
    const second = { ...input, request: { ...request, id: 'crows-2' } };
    const p = pipeline(out, llm);
    const outcomes = await p.run([input, second]);
    p.close();
    expect(outcomes.map((o) => o.blockedAt)).toEqual([null, null]);
    const summaries = llm.calls.filter((c) => c.messages[0]!.content === SUMMARIZE_SYSTEM);
    expect(summaries).toHaveLength(5);
    expect(llm.calls.filter((c) => c.messages[0]!.content === WRITE_QA_PAIRS_SYSTEM)).toHaveLength(10);
  });

  it('an unreadable multi-answer verdict keeps every answer as OR and is recorded', async () => {
    const out = mkdtempSync(join(tmpdir(), 'nuggets-'));
    const wrapped = new FakeLlm((r) =>
      r.messages[0]!.content === AGGREGATE_ANSWERS_SYSTEM_MULTI ? 'they all look fine' : reply(r),
    );
    const p = pipeline(out, wrapped);
    await p.run([input]);
    p.close();
    const bank = JSON.parse(readFileSync(join(out, 'nuggets_crows.v3.json'), 'utf8'));
    const nugget = bank.nugget_bank['In which city do the crows live?'];
    expect(Object.keys(nugget.answers)).toEqual(['Vienna', 'in the Vienna zoo']);
    expect(nugget.aggregator_type).toBe('OR');
    const verdicts = JSON.parse(readFileSync(join(out, 'judgments', 'answer_judgments.json'), 'utf8'));
    expect(verdicts.crows[0]).toMatchObject({ status: 'unparsable', raw: 'they all look fine' });
  });
});
