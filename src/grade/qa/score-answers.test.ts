import { describe, expect, it } from 'vitest';
import { RunRowSchema } from '../../core/index.js';
import type { EncodedText, TokenEncoder } from '../../llm/index.js';
import { bertScore, idfFromReferences } from './bertscore.js';
import { parseReferences, qasperReferenceTexts } from './references.js';
import { RougeScorer } from './rouge.js';
import { parseQaMetrics, scoreAnswers, summarizeQaScores } from './score-answers.js';

const run = (rows: { row_id: string; answer?: string; error?: string; model?: string }[]) =>
  rows.map((r) => RunRowSchema.parse({ model: 'm', ...r }));

/** A fake encoder: [CLS] words [SEP], each word's vector from its letters (deterministic). */
class LetterEncoder implements TokenEncoder {
  readonly id = 'letters';
  calls: string[][] = [];
  async encode(texts: readonly string[]): Promise<EncodedText[]> {
    this.calls.push([...texts]);
    return texts.map((t) => {
      const words = ['[CLS]', ...t.toLowerCase().split(/\W+/).filter(Boolean), '[SEP]'];
      return {
        tokens: words,
        special: words.map((w) => w.startsWith('[')),
        vectors: words.map((w) => [w.length, w.charCodeAt(0) % 7, w.charCodeAt(w.length - 1) % 5, 1]),
      };
    });
  }
}

describe('parseReferences', () => {
  const annotation = (a: Partial<Record<string, unknown>>) => ({
    unanswerable: false,
    yes_no: null,
    free_form_answer: '',
    extractive_spans: [],
    evidence: [],
    ...a,
  });

  it('reads QASPER questions: free-form answers and joined extractive spans, distinct, no yes/no', () => {
    const text = JSON.stringify([
      {
        paper_id: 'p1',
        question_id: 'q1',
        question: 'Which?',
        answers: [
          annotation({ extractive_spans: ['BIBREF19', 'BIBREF20'] }),
          annotation({ free_form_answer: 'two baselines' }),
          annotation({ extractive_spans: ['BIBREF19', 'BIBREF20'] }),
          annotation({ yes_no: true }),
          annotation({ unanswerable: true }),
        ],
      },
      { paper_id: 'p1', question_id: 'q2', question: 'Does it?', answers: [annotation({ yes_no: false })] },
    ]);
    const set = parseReferences(text, 'q.json');
    expect(set.format).toBe('qasper');
    expect(set.references.get('p1_q1')).toEqual(['BIBREF19, BIBREF20', 'two baselines']);
    expect(set.references.get('p1_q2')).toEqual([]);
  });

  it('reads a citegeist dataset: QASPER annotations when imported from QASPER, else expected_answer', () => {
    const rows = [
      {
        row_id: 'a',
        question: 'Q?',
        expected_answer: 'first',
        metadata: {
          qasper_answers: [annotation({ free_form_answer: 'x' }), annotation({ free_form_answer: 'y' })],
        },
      },
      { row_id: 'b', question: 'Q?', expected_answer: 'plain answer' },
      { row_id: 'c', question: 'Q?', expected_answer: 'The paper does not say.', expected_refusal: true },
    ];
    const set = parseReferences(rows.map((r) => JSON.stringify(r)).join('\n'), 'd.jsonl');
    expect(set.format).toBe('dataset');
    expect(Object.fromEntries(set.references)).toEqual({ a: ['x', 'y'], b: ['plain answer'], c: [] });
  });

  it('reads {row_id, references} JSONL and reports bad lines without dropping the rest', () => {
    const text = [
      '{"row_id": "r1", "references": ["one", "two"]}',
      '{"row_id": "r2", "reference": "three"}',
      'not json',
      '{"row_id": "r3", "references": [1]}',
      '{"references": ["x"]}',
    ].join('\n');
    const set = parseReferences(text, 'refs.jsonl');
    expect(Object.fromEntries(set.references)).toEqual({ r1: ['one', 'two'], r2: ['three'] });
    expect(set.errors.map((e) => e.where)).toEqual([
      'refs.jsonl line 3',
      'refs.jsonl line 4',
      'refs.jsonl line 5',
    ]);
    expect(set.errors[1]!.message).toMatch(/not a list of strings/);
  });

  it('reads a one-line JSONL file (a single JSON object) as one row', () => {
    const set = parseReferences(
      '{"row_id": "r1", "question": "Q?", "expected_answer": "yes it is"}\n',
      'one.jsonl',
    );
    expect(set.errors).toEqual([]);
    expect(Object.fromEntries(set.references)).toEqual({ r1: ['yes it is'] });
  });

  it('qasperReferenceTexts skips empty free-form answers and empty spans', () => {
    expect(
      qasperReferenceTexts([annotation({ free_form_answer: '  ', extractive_spans: ['', 'a'] })]),
    ).toEqual(['a']);
  });
});

describe('scoreAnswers', () => {
  const refs = new Map([
    ['r1', ['the cat sat on the mat', 'a cat on a mat']],
    ['r2', []],
    ['r3', ['nothing here']],
    ['r4', ['never answered']],
  ]);

  it('joins by row id, scores ROUGE as score_multi, and keeps the tri-state', async () => {
    const preds = run([
      { row_id: 'r1', answer: 'a cat sat on the mat' },
      { row_id: 'r2', answer: 'anything' },
      { row_id: 'r3', answer: '', error: 'timeout' },
      { row_id: 'zz', answer: 'stray' },
    ]);
    const result = await scoreAnswers(preds, refs, { metrics: ['rouge1', 'rougeL'], stemmer: false });
    expect(result.unknownRows).toEqual(['zz']);
    expect(result.missingRows).toEqual(['r4']);
    const [r1, r2, r3] = result.rows;
    const expected = new RougeScorer(['rouge1', 'rougeL']).scoreMulti(
      refs.get('r1')!,
      'a cat sat on the mat',
    );
    expect(r1!.rouge).toEqual(expected);
    expect(r1!.status).toEqual({ rouge1: 'scored', rougeL: 'scored' });
    expect(r2!.status.rougeL).toBe('not-applicable');
    expect(r2!.rouge).toBeUndefined();
    expect(r3!.status.rougeL).toBe('failed');
    expect(r3!.reason).toBe('the answer failed: timeout');
  });

  it('scores BERTScore with the encoder once per distinct text and idf over the scored references', async () => {
    const encoder = new LetterEncoder();
    const preds = run([
      { row_id: 'r1', answer: 'a cat sat on the mat' },
      { row_id: 'r3', answer: 'nothing here' },
    ]);
    const result = await scoreAnswers(preds, refs, {
      metrics: ['bertscore'],
      stemmer: false,
      bertscore: { encoder, idf: true },
    });
    expect(encoder.calls).toEqual([
      ['a cat sat on the mat', 'the cat sat on the mat', 'a cat on a mat', 'nothing here'],
    ]);
    const enc = await new LetterEncoder().encode([
      'a cat sat on the mat',
      'the cat sat on the mat',
      'a cat on a mat',
      'nothing here',
    ]);
    const expected = bertScore([enc[0]!, enc[3]!], [[enc[1]!, enc[2]!], [enc[3]!]], { idf: true });
    expect(result.rows.map((r) => r.bertscore)).toEqual(expected);
    expect(result.rows[1]!.bertscore!.f1).toBeCloseTo(1, 12);
  });

  it('counts the references of failed answers in idf, as bert_score would with all rows', async () => {
    const encoder = new LetterEncoder();
    const preds = run([
      { row_id: 'r1', answer: 'a cat sat on the mat' },
      { row_id: 'r3', answer: '', error: 'timeout' },
    ]);
    const result = await scoreAnswers(preds, refs, {
      metrics: ['bertscore'],
      stemmer: false,
      bertscore: { encoder, idf: true },
    });
    const [a, r1a, r1b, r3] = await new LetterEncoder().encode([
      'a cat sat on the mat',
      'the cat sat on the mat',
      'a cat on a mat',
      'nothing here',
    ]);
    const idf = idfFromReferences([r1a!, r1b!, r3!]);
    expect(result.rows[0]!.bertscore).toEqual(bertScore([a!], [[r1a!, r1b!]], { idf })[0]);
    expect(result.rows[1]!.status.bertscore).toBe('failed');
  });

  it('summarises per model: counts by status, mean P/R, and mean F with a bootstrap CI', async () => {
    const preds = run([
      { row_id: 'r1', answer: 'a cat sat on the mat' },
      { row_id: 'r2', answer: 'x' },
      { row_id: 'r3', answer: 'nothing here', model: 'other' },
    ]);
    const { rows } = await scoreAnswers(preds, refs, { metrics: ['rougeL'], stemmer: false });
    const [m, other] = summarizeQaScores(rows, ['rougeL'], { seed: 1, iterations: 200 });
    expect(m!.model).toBe('m');
    expect(m!.metrics[0]).toMatchObject({ scored: 1, notApplicable: 1, failed: 0 });
    expect(m!.metrics[0]!.f.estimate).toBe(rows[0]!.rouge!.rougeL!.fmeasure);
    expect(other!.metrics[0]!.f.estimate).toBe(1);
  });

  it('refuses unknown metrics', () => {
    expect(() => parseQaMetrics(['rougeL', 'bleu'])).toThrow(/Invalid rouge type: "bleu"/);
    expect(parseQaMetrics(['rougeL', 'bertscore', 'rougeL'])).toEqual(['rougeL', 'bertscore']);
  });
});
