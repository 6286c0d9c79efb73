import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parsePythonJson, stringifyPythonJson } from '../python-compat/python-json.js';
import { sharedDataPath, skipWithoutSharedData } from '../testing/index.js';
import {
  asNuggetBank,
  bankQueryId,
  md5,
  type NuggetQuestion,
  nuggetEntries,
  questionId,
} from './nugget-bank.js';
import {
  nuggetBankText,
  readMaybeGzip,
  readNuggetBanks,
  readNuggetFile,
  writeNuggetBankFile,
} from './nugget-bank-io.js';
import {
  fromLegacyV1,
  fromNeuclirEvaluation,
  fromNuggetizer,
  toLegacyV1,
  toNeuclirEvaluation,
} from './nugget-formats.js';
import { addNuggets, createNuggetBank, mergeMetadata, nuggetQuestion } from './nugget-merge.js';

const q = (init: Partial<NuggetQuestion> & { question: string }): NuggetQuestion => ({
  query_id: '1',
  ...init,
});

describe('nugget bank merging (the reference library, hltcoe/argue-viz src/nugget_data.py)', () => {
  it('adds new questions in order and merges a question added twice in place', () => {
    const bank = createNuggetBank({ query_id: '1', title_query: 'T' });
    addNuggets(bank, [
      nuggetQuestion({ query_id: '1', question: 'Q1', answers: ['a'] }),
      nuggetQuestion({ query_id: '1', question: 'Q2', answers: ['b'] }),
    ]);
    addNuggets(
      bank,
      nuggetQuestion({ query_id: '1', question: 'Q1', answers: [{ answer: 'a', references: ['d9'] }, 'c'] }),
    );
    expect(nuggetEntries(bank).map(([k]) => k)).toEqual(['Q1', 'Q2']);
    const merged = bank.nugget_bank!.Q1 as NuggetQuestion;
    // Same answer text: references concatenated (none + [d9]); new answers appended.
    expect(stringifyPythonJson(merged)).toBe(
      `{"question": "Q1", "answers": {"a": {"answer": "a", "references": [{"doc_id": "d9"}]}, "c": {"answer": "c"}}, "sub_nuggets": [], "question_id": "${md5('Q1')}", "query_id": "1"}`,
    );
  });

  it('keeps the first id, aggregator and markup, takes the last quality and importance, drops question references, concatenates creators', () => {
    const bank = createNuggetBank({ query_id: '1', title_query: 'T' });
    const creator = (who: string) => [{ is_human: true, assessor_id: who }];
    addNuggets(
      bank,
      q({
        question: 'Q',
        aggregator_type: 'AND',
        importance: 1,
        quality: 'x',
        creator: creator('a'),
        references: [{ doc_id: 'r' }],
      }),
    );
    addNuggets(
      bank,
      q({ question: 'Q', aggregator_type: 'OR', importance: 3, question_id: 'other', creator: creator('b') }),
    );
    const m = bank.nugget_bank!.Q as NuggetQuestion;
    expect(m.aggregator_type).toBe('AND');
    expect(m.question_id).toBe(md5('Q'));
    expect(m.importance).toBe(3);
    expect(m.quality).toBe('x');
    expect(m.references).toBeUndefined();
    expect(m.answers).toEqual({});
    expect(m.creator).toEqual([...creator('a'), ...creator('b')]);
  });

  it('merges metadata as the reference does: right over left, plus merged: [left, right]', () => {
    expect(mergeMetadata(null, undefined)).toBeNull();
    expect(mergeMetadata(null, { a: 1 })).toEqual({ a: 1, merged: [{}, { a: 1 }] });
    const bank = createNuggetBank({ query_id: '1', title_query: 'T' });
    addNuggets(bank, [
      q({ question: 'Q', metadata: { a: 1, b: 1 } }),
      q({ question: 'Q', metadata: { b: 2 } }),
    ]);
    const once = { a: 1, b: 1, merged: [{}, { a: 1, b: 1 }] };
    expect((bank.nugget_bank!.Q as NuggetQuestion).metadata).toEqual({
      ...once,
      b: 2,
      merged: [once, { b: 2 }],
    });
  });

  it('refuses to merge a claim into a question of the same text (the reference raises TypeError)', () => {
    const bank = createNuggetBank({ query_id: '1', title_query: 'T' });
    addNuggets(bank, q({ question: 'Same' }));
    expect(() => addNuggets(bank, { claim: 'Same', query_id: '1' })).toThrow(
      /only two questions can be merged/,
    );
  });

  it('falls back to MD5 ids as the reference assigns them', () => {
    const bank = asNuggetBank({ title_query: 'Topic', nugget_bank: { Q: { question: 'Q' } } }, 'x');
    expect(bankQueryId(bank)).toBe(md5('Topic'));
    expect(questionId(bank.nugget_bank!.Q as NuggetQuestion)).toBe('f09564c9ca56850d4cd6b3319e541aee');
  });

  it('names the file and field of an invalid bank', () => {
    expect(() =>
      asNuggetBank(
        { title_query: 'T', nugget_bank: { Q: { question: 'Q', aggregator_type: 'XOR' } } },
        'b.json',
      ),
    ).toThrow(/b\.json is not a v3 nugget bank: field "nugget_bank\.Q/);
  });
});

describe('nugget file formats', () => {
  const v3 = () => {
    const bank = createNuggetBank({ query_id: '7', title_query: '7' });
    addNuggets(bank, [
      nuggetQuestion({
        query_id: '7',
        question: 'How many?',
        aggregator_type: 'OR',
        answers: [
          { answer: '11', references: ['d1'] },
          { answer: 'eleven', references: [] },
        ],
      }),
      nuggetQuestion({
        query_id: '7',
        question: 'Which two?',
        aggregator_type: 'AND',
        importance: 2,
        answers: ['x', 'y'],
      }),
    ]);
    return bank;
  };

  it('legacy v1 ↔ v3 keeps questions, ids, aggregation, importance, answers and their documents', () => {
    const v1 = toLegacyV1(v3());
    expect(v1.items[0]).toEqual({
      query_id: '7',
      question_text: 'How many?',
      question_id: md5('How many?'),
      info: { aggregator_type: 'OR' },
      gold_answers: [
        { answer: '11', citations: ['d1'] },
        { answer: 'eleven', citations: [] },
      ],
    });
    const again = toLegacyV1(fromLegacyV1(parsePythonJson(stringifyPythonJson(v1)), 'v1'));
    expect(stringifyPythonJson(again)).toBe(stringifyPythonJson(v1));
    // String answers (the early ARGUE layout) are accepted too.
    const plain = fromLegacyV1(
      {
        query_id: 3,
        items: [{ question_text: 'Q', gold_answers: ['a'], info: { importance: 'vital', note: 1 } }],
      },
      'v1',
    );
    expect(nuggetEntries(plain)[0]![1]).toMatchObject({
      question: 'Q',
      importance: 'vital',
      info: { note: 1 },
    });
  });

  it('NeuCLIR 2024 evaluation lines ↔ v3 (aggregation is not recorded there: OR)', () => {
    const line = {
      request_id: '300',
      questions: [
        [
          'Q?',
          [
            ['A1', ['d1', 'd2']],
            ['A2', []],
          ],
        ],
      ],
      extra: true,
    };
    const bank = fromNeuclirEvaluation(line, 'eval.jsonl line 1');
    expect(nuggetEntries(bank)[0]![1]).toMatchObject({
      aggregator_type: 'OR',
      answers: { A1: { references: [{ doc_id: 'd1' }, { doc_id: 'd2' }] } },
    });
    expect(toNeuclirEvaluation(bank)).toEqual(line);
    expect(() => fromNeuclirEvaluation({ questions: [] }, 'e')).toThrow(/no request id/);
  });

  it('reads nuggetizer nuggets as claims with their importance', () => {
    const bank = fromNuggetizer({
      qid: 5,
      query: 'what?',
      nuggets: [{ text: 'A fact', importance: 'vital' }],
    });
    expect(bank.title_query).toBe('what?');
    expect(nuggetEntries(bank)[0]).toEqual([
      'A fact',
      { claim: 'A fact', query_id: '5', importance: 'vital' },
    ]);
  });

  it('reads .json, .json.gz and JSONL files from a folder and refuses a request found twice', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nuggets-'));
    writeNuggetBankFile(join(dir, 'nuggets_7.v3.json.gz'), v3());
    writeFileSync(
      join(dir, 'eval.jsonl'),
      `${JSON.stringify({ request_id: '8', questions: [['Q', [['A', []]]]] })}\n`,
    );
    writeFileSync(join(dir, 'README.md'), 'not a bank');
    const banks = readNuggetBanks(dir);
    expect([...banks.keys()].sort()).toEqual(['7', '8']);
    expect(banks.get('7')!.format).toBe('v3');
    expect(nuggetBankText(banks.get('7')!.bank)).toBe(nuggetBankText(v3()));
    expect(banks.get('8')!.format).toBe('neuclir');
    writeFileSync(join(dir, 'copy.json'), nuggetBankText(v3()));
    expect(() => readNuggetBanks(dir)).toThrow(/Request "7" has nuggets in both/);
    writeFileSync(join(dir, 'copy.json'), gzipSync('{"oops": 1}'));
    expect(() => readNuggetFile(join(dir, 'copy.json'))).toThrow(/not a nugget file this tool reads/);
    expect(() => readNuggetBanks(join(dir, 'nope'))).toThrow(/does not exist/);
  });

  const shared = sharedDataPath('nuggets');
  it('reads and writes back every published DoGMaTiQ bank unchanged, also gzipped (../shared/data/nuggets)', (ctx) => {
    skipWithoutSharedData(['nuggets'])(ctx);
    const dir = mkdtempSync(join(tmpdir(), 'nuggets-gz-'));
    for (const f of readdirSync(shared).filter((x) => x.endsWith('.json'))) {
      const [loaded] = readNuggetFile(join(shared, f));
      const text = readFileSync(join(shared, f), 'utf8');
      expect(nuggetBankText(loaded!.bank), f).toBe(text);
      writeNuggetBankFile(join(dir, `${f}.gz`), loaded!.bank);
      expect(readMaybeGzip(join(dir, `${f}.gz`), 'bank'), f).toBe(text);
      expect(nuggetEntries(loaded!.bank).length, f).toBeGreaterThan(10);
      // Through the other formats and back to the same questions and answers.
      const again = fromLegacyV1(toLegacyV1(loaded!.bank), 'v1');
      expect(toLegacyV1(again)).toEqual(toLegacyV1(loaded!.bank));
    }
  });
});
