import { describe, expect, it } from 'vitest';
import { createManifest } from '../../core/index.js';
import { readFaithfulnessInputs } from './input.js';

const lines = (...rows: unknown[]) =>
  rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n');

describe('readFaithfulnessInputs', () => {
  it('reads the native layout and normalises source keys', () => {
    const { inputs, problems } = readFaithfulnessInputs(
      lines({ id: 'a1', question: 'Q?', answer: 'A [1].', sources: { '^1': 'one', '2': 'two' } }),
    );
    expect(problems).toEqual([]);
    expect(inputs).toEqual([
      { id: 'a1', question: 'Q?', answer: 'A [1].', sources: { '1': 'one', '2': 'two' }, layout: 'native' },
    ]);
  });

  it('reads citegeist run rows: citations become sources, the evidence block is cut', () => {
    const answer = 'Dose is 5 mg/kg [^1, ^2].\n\n---EVIDENCE---\n@cite[1]\n"q1"\n---END-EVIDENCE---';
    const { inputs } = readFaithfulnessInputs(
      lines({
        row_id: 'r1',
        model: 'm',
        answer,
        citations: [
          { key: '1', quote: 'q1' },
          { key: '^2', quote: 'q2' },
          { key: '2', quote: 'q2b' },
        ],
      }),
    );
    expect(inputs[0]).toMatchObject({
      id: 'r1',
      answer: 'Dose is 5 mg/kg [^1, ^2].',
      sources: { '1': 'q1', '2': 'q2\n…\nq2b' },
      layout: 'run',
    });
  });

  it('skips the manifest record that heads a citegeist run file', () => {
    const manifest = createManifest({
      kind: 'run',
      defaultLabel: 'm',
      settings: {},
      inputs: {},
      version: 'test',
    });
    const row = { row_id: 'r1', answer: 'Yes [^1].', citations: [{ key: '1', quote: 'q' }], error: null };
    const { inputs, problems } = readFaithfulnessInputs(
      `${JSON.stringify(manifest)}\n${JSON.stringify(row)}\n`,
    );
    expect(problems).toEqual([]);
    expect(inputs.map((i) => [i.id, i.layout])).toEqual([['r1', 'run']]);
  });

  it('takes the sources from the evidence block when a row has no citations', () => {
    const answer = 'A [^1].\n\n---EVIDENCE---\n@cite[1]\n"the quote"\n---END-EVIDENCE---';
    const { inputs } = readFaithfulnessInputs(lines({ row_id: 'r', model: 'm', answer }));
    expect(inputs[0]).toMatchObject({ answer: 'A [^1].', sources: { '1': 'the quote' } });
  });

  it('reads the published ResearchQA results list (a JSON array)', () => {
    const list = JSON.stringify([
      { row_id: 'p1', actual_answer: 'X [^1].', actual_citations: [{ key: '1', reference: 'r1' }] },
      { row_id: 'p2' },
    ]);
    const { inputs, problems } = readFaithfulnessInputs(list);
    expect(inputs.map((i) => i.id)).toEqual(['p1']);
    expect(problems).toMatchObject([{ line: 2, where: 'item 2' }]);
    expect(readFaithfulnessInputs('[{"broken"').problems[0]?.problem).toMatch(/does not parse/);
  });

  it('reads the ResearchQA results layout', () => {
    const { inputs } = readFaithfulnessInputs(
      lines({
        row_id: 'p_chunk0_lookup',
        question: 'Q',
        actual_answer: 'X [^1].',
        actual_citations: [{ key: '[^1]', reference: 'ref one' }],
      }),
    );
    expect(inputs[0]).toMatchObject({
      id: 'p_chunk0_lookup',
      sources: { '1': 'ref one' },
      layout: 'researchqa',
    });
  });

  it('reports bad rows with their line and keeps the good ones', () => {
    const text = lines(
      { id: 'ok', answer: 'A', sources: {} },
      '{not json',
      '',
      { id: 'x', answer: 3, sources: {} },
      [1, 2],
      { row_id: 'failed', model: 'm', answer: '', error: 'HTTP 500' },
      { id: 'ok', answer: 'again', sources: {} },
      { actual_answer: 'no id' },
      { something: 'else' },
    );
    const { inputs, problems } = readFaithfulnessInputs(text);
    expect(inputs.map((i) => i.id)).toEqual(['ok']);
    expect(problems.map((p) => p.line)).toEqual([2, 4, 5, 6, 7, 8, 9]);
    expect(problems[0]?.problem).toMatch(/not JSON/);
    expect(problems[1]?.problem).toMatch(/answer/);
    expect(problems[2]?.problem).toMatch(/JSON object/);
    expect(problems[3]?.problem).toMatch(/run row failed/);
    expect(problems[4]?.problem).toMatch(/duplicate/);
    expect(problems[5]?.problem).toMatch(/row_id/);
  });
});
