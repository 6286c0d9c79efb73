import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sharedDataPath, skipWithoutSharedData } from '../testing/index.js';
import { markdownSections, sectionLabelAt } from './markdown-sections.js';
import { importQasper } from './qasper-dataset.js';
import { floatLabel, qasperQuestionToRow } from './qasper-import.js';

const dev = (...p: string[]) => sharedDataPath('qasper-dev', ...p);
const ann = { unanswerable: false, yes_no: null, free_form_answer: '', extractive_spans: [], evidence: [] };
const q = (answers: unknown[]) => ({ paper_id: 'p', question_id: 'q1', question: 'Q?', answers }) as never;
const locate = (p: string) =>
  p.startsWith('intro') ? 'Introduction' : p.startsWith('exp') ? 'Experiments ::: Setup' : null;

describe('qasperQuestionToRow', () => {
  it.each([
    [
      [{ ...ann, extractive_spans: ['BERT', 'ELMo'], evidence: ['intro para'] }],
      'lookup',
      'BERT, ELMo',
      null,
    ],
    [[{ ...ann, yes_no: false, evidence: ['exp para'] }], 'lookup', 'No', null],
    [[{ ...ann, free_form_answer: 'They use a CRF.' }], 'comprehension', 'They use a CRF.', null],
    [
      [
        { ...ann, unanswerable: true },
        { ...ann, unanswerable: true },
      ],
      'adversarial',
      'The paper does not answer this question.',
      true,
    ],
    [
      [
        { ...ann, unanswerable: true },
        { ...ann, yes_no: true },
      ],
      'lookup',
      'Yes',
      null,
    ],
  ])('%j → %s', (answers, type, expected, refusal) => {
    const row = qasperQuestionToRow(q(answers), locate);
    expect(row.question_type).toBe(type);
    expect(row.expected_answer).toBe(expected);
    expect(row.expected_refusal).toBe(refusal);
    expect(row.metadata.question_id).toBe('q1');
    expect(row.row_id).toBe('p_q1');
  });

  it('labels evidence groups with their section, tables by float label, unknown as ""', () => {
    const evidence = [
      'intro para',
      'exp para',
      'FLOAT SELECTED: Table 3: Results.',
      'lost para',
      'intro para',
    ];
    const row = qasperQuestionToRow(q([{ ...ann, extractive_spans: ['x'], evidence }]), locate);
    expect(row.expected_references).toEqual([
      { section_label: 'Introduction', alternatives: ['intro para'] },
      { section_label: 'Experiments ::: Setup', alternatives: ['exp para'] },
      { section_label: 'Table 3', alternatives: ['FLOAT SELECTED: Table 3: Results.'] },
      { section_label: '', alternatives: ['lost para'] },
    ]);
    expect(row.required_sections).toEqual(['Introduction', 'Experiments ::: Setup', 'Table 3']);
    expect(row.metadata.unlocated_evidence).toEqual(['lost para']);
  });

  it.each([
    ['FLOAT SELECTED: Table 1: Data Statistics.', 'Table 1'],
    ['FLOAT SELECTED: Figure 12: A plot', 'Figure 12'],
    ['FLOAT SELECTED: something', 'Table/Figure'],
  ])('floatLabel(%j) = %j', (text, label) => {
    expect(floatLabel(text)).toBe(label);
  });
});

describe('markdownSections', () => {
  it('finds ## headings and the section of an offset', () => {
    const text = '# Title\n\n## Abstract\n\nabc\n\n## Method ::: Data\n\nxyz\n';
    const sections = markdownSections(text);
    expect(sections.map((s) => s.label)).toEqual(['Title', 'Abstract', 'Method ::: Data']);
    expect(sectionLabelAt(sections, text.indexOf('abc'))).toBe('Abstract');
    expect(sectionLabelAt(sections, text.indexOf('xyz'))).toBe('Method ::: Data');
    expect(sectionLabelAt(markdownSections('no headings'), 3)).toBeNull();
  });
});

describe('importQasper on the real dev split', () => {
  it('imports questions_validation.json + Markdown papers: 1,005 rows, types, sections', (ctx) => {
    skipWithoutSharedData(
      ['qasper-dev', 'questions_validation.json'],
      ['qasper-dev', 'papers', '1909.00512.txt'],
    )(ctx);
    const data = JSON.parse(readFileSync(dev('questions_validation.json'), 'utf8')) as unknown;
    const result = importQasper(data, { file: 'questions_validation.json', papersDir: dev('papers') });
    expect(result.errors).toEqual([]);
    expect(result.missingPapers).toEqual([]);
    expect(result.rows).toHaveLength(1005);
    const count = (t: string) => result.rows.filter((r) => r.question_type === t).length;
    // Counts cross-checked with a Python reading of the same file (first answerable annotation decides).
    expect([count('lookup'), count('comprehension'), count('adversarial')]).toEqual([669, 276, 60]);
    expect(new Set(result.rows.map((r) => r.paper_id)).size).toBe(281);
    const first = result.rows[0];
    expect(first?.expected_references[0]?.section_label).toBe('Experiments ::: Main Results');
    expect(result.unlocatedEvidence).toBeLessThan(10);
  });

  it('imports the native layout with sections from full_text', () => {
    const data = JSON.parse(readFileSync(dev('qasper-native-sample.json'), 'utf8')) as unknown;
    const result = importQasper(data, { file: 'sample.json' });
    expect(result.errors).toEqual([]);
    expect(result.rows).toHaveLength(4);
    expect(result.rows[0]?.metadata.paper_title).toMatch(/Cross-lingual Pre-training/);
    const labels = result.rows.flatMap((r) => r.expected_references.map((g) => g.section_label));
    expect(labels).toContain('Table 1');
    expect(labels).toContain('Experiments ::: Main Results');
    // The trimmed sample's full_text lacks the MultiUN paragraph: it stays unlabelled and is reported.
    const unlocated = result.rows.flatMap(
      (r) => (r.metadata.unlocated_evidence as string[] | undefined) ?? [],
    );
    expect(unlocated.length).toBe(labels.filter((l) => l === '').length);
    for (const u of unlocated) expect(u).toMatch(/^For MultiUN corpus/);
  });

  it('records a bad question and imports the rest; counts missing papers', () => {
    const data = [
      {
        paper_id: 'x',
        question_id: 'a',
        question: 'Q',
        answers: [{ ...ann, yes_no: true, evidence: ['e'] }],
      },
      { paper_id: 'x' },
    ];
    const result = importQasper(data, { file: 'q.json', papersDir: dev('papers') });
    expect(result.rows).toHaveLength(1);
    expect(result.errors[0]?.where).toBe('q.json [1]');
    expect(result.missingPapers).toEqual(['x']);
  });
});
