import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { indexDataset } from '../formats/dataset-index.js';
import { readDataset } from '../formats/dataset-io.js';
import { checkDataset } from './check-dataset.js';

const papers: Record<string, string> = {
  p1: 'We trained the model for ten epochs. The accuracy rose to 91 percent on the test set.',
  p2: 'Annotators labelled 1,204 survey responses. Agreement was substantial.',
};

const row = (id: string, paper: string, question: string, evidence: string[][]) => ({
  row_id: id,
  paper_id: paper,
  question_type: 'lookup',
  question,
  expected_references: evidence.map((alternatives, i) => ({ section_label: `s${i}`, alternatives })),
});

describe('checkDataset', () => {
  it('checks indexed rows as it checks rows in memory, paper by paper, problems in row order', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'citegeist-check-'));
    const rows = [
      row('a', 'p1', 'How long?', [['We trained the model for ten epochs.']]),
      row('b', 'p2', '  ', [['labelled 1,204 survey responses'], ['Agreement was perfect.']]),
      row('c', 'p1', 'How accurate?', [['The accuracy rose to 99 percent', 'accuracy rose to 91 percent']]),
      row('d', 'p3', 'Which paper?', [['anything']]),
      row('e', 'p2', 'Agreement?', [['Agreement was weak.']]),
    ];
    const path = join(dir, 'd.jsonl');
    writeFileSync(path, rows.map((r) => JSON.stringify(r)).join('\n'));
    const loads: string[] = [];
    const loadPaper = async (id: string) => {
      loads.push(id);
      return papers[id] === undefined ? null : { text: papers[id] };
    };
    const inMemory = await checkDataset(readDataset(path), { loadPaper });
    expect(loads).toEqual(['p1', 'p2', 'p3']);
    const index = indexDataset(path);
    const indexed = await checkDataset(index, { loadPaper });
    index.close();
    expect(indexed).toEqual(inMemory);
    expect(inMemory.errors.map((e) => [e.kind, e.row_id])).toEqual([
      ['empty_question', 'b'],
      ['unknown_paper', 'd'],
    ]);
    expect(inMemory.warnings.map((w) => [w.kind, w.row_id])).toEqual([
      ['unlocated_evidence', 'b'],
      ['unlocated_evidence', 'e'],
    ]);
    expect(inMemory.evidence).toEqual({ groups: 5, located: 3 });
  });
});
