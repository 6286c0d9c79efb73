import { describe, expect, it } from 'vitest';
import { addNuggets, createNuggetBank, nuggetBankText, nuggetQuestion } from '../../formats/index.js';
import { FakeLlm } from '../../testing/index.js';
import { type ClusterSummary, gingerBank } from './ginger-baseline.js';
import { StepLog, stepKey } from './step-log.js';

describe('gingerBank (GINGER-style baseline)', () => {
  it('summarises the top clusters into cluster_summary_i pseudo-nuggets with their references', async () => {
    const bank = createNuggetBank({ query_id: 'r', title_query: 'Crows' });
    addNuggets(bank, [
      nuggetQuestion({
        query_id: 'r',
        question: 'Q small',
        answers: [{ answer: 'x', references: ['d9'] }],
        metadata: { num_paraphrases_total: 1, num_answers: 1 },
      }),
      nuggetQuestion({
        query_id: 'r',
        question: 'Where do they live?',
        answers: [
          { answer: 'Vienna', references: ['d1', 'd2'] },
          { answer: 'the zoo', references: ['d2', 'd3'] },
        ],
        metadata: { num_paraphrases_total: 5, num_answers: 2 },
      }),
    ]);
    const log = new StepLog<ClusterSummary>((r) => stepKey(r.request_id, r.question, ...r.answers));
    const llm = new FakeLlm(['The crows live in the Vienna zoo.', '']);
    const creator = { is_human: false, llm_model: 'fake' };
    const first = await gingerBank(bank, { llm, log, creator, topK: 2 });
    // The second reply is empty: a failed summary, nothing written, the good one logged.
    expect(first).toEqual({ failed: ['summary of "Q small": empty reply'] });
    const again = await gingerBank(bank, { llm: new FakeLlm(['X is small.']), log, creator, topK: 2 });
    if (!('bank' in again)) throw new Error('expected a bank');
    const text = nuggetBankText(again.bank);
    const parsed = JSON.parse(text);
    expect(Object.keys(parsed.nugget_bank)).toEqual(['cluster_summary_1', 'cluster_summary_2']);
    expect(parsed.nugget_bank.cluster_summary_1).toEqual({
      question: 'cluster_summary_1',
      query_id: 'r',
      importance: 'vital',
      answers: {
        'The crows live in the Vienna zoo.': {
          answer: 'The crows live in the Vienna zoo.',
          references: [{ doc_id: 'd1' }, { doc_id: 'd2' }, { doc_id: 'd3' }],
        },
      },
      aggregator_type: 'OR',
      metadata: {
        source: 'ginger_cluster_summaries',
        generated_from_passages: false,
        cluster_index: 1,
        cluster_question: 'Where do they live?',
      },
    });
    expect(parsed.metadata).toEqual({
      source: 'ginger-style cluster summaries (citegeist)',
      num_cluster_summaries: 2,
    });
  });
});
