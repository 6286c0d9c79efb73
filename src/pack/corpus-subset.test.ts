import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CorpusStore, ingestPaths, openCorpus } from '../store/index.js';
import { writeCorpusSubset } from './corpus-subset.js';

/** A corpus of three papers and a dataset naming two of them (one twice) and one it lacks. */
async function corpusStudy(): Promise<{ dir: string; corpus: string; dataset: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'citegeist-corpus-subset-'));
  const texts: [string, string][] = [
    ['p1.md', '# One\n\n## Methods\n\nWe surveyed 1,204 teachers.\n'],
    ['p2.md', '# Two\n\n## Methods\n\nNothing here is read.\n'],
    ['p3.txt', 'Results\n\nResponse rates rose from 41% to 58%.\n'],
  ];
  for (const [name, text] of texts) writeFileSync(join(dir, name), text);
  const corpus = join(dir, 'corpus.sqlite');
  const store = CorpusStore.open(corpus);
  try {
    await ingestPaths(
      store,
      texts.map(([name]) => join(dir, name)),
    );
  } finally {
    store.close();
  }
  const row = (id: string, paper: string) => ({
    row_id: id,
    paper_id: paper,
    domain: 'education',
    question_type: 'lookup',
    question: 'What?',
    expected_answer: 'x',
    expected_references: [{ section_label: 'Methods', alternatives: ['x'] }],
  });
  const dataset = join(dir, 'dataset.jsonl');
  const rows = [row('a', 'p1'), row('b', 'p1'), row('c', 'p3'), row('d', 'absent')];
  writeFileSync(dataset, rows.map((r) => JSON.stringify(r)).join('\n'));
  return { dir, corpus, dataset };
}

describe('writeCorpusSubset', () => {
  it('copies whole the papers a dataset names that the corpus holds: same ids, texts and documents', async () => {
    const { dir, corpus, dataset } = await corpusStudy();
    const a = join(dir, 'a.sqlite');
    expect(await writeCorpusSubset([dataset], corpus, a)).toEqual({ papers: 2, of: 3 });
    const whole = openCorpus(corpus);
    const part = openCorpus(a);
    try {
      expect(part.ids().sort()).toEqual(['p1', 'p3']);
      for (const id of ['p1', 'p3']) {
        expect(part.matchingText(id)?.text).toBe(whole.matchingText(id)?.text);
        expect(part.get(id)).toEqual(whole.get(id));
      }
    } finally {
      part.close();
      whole.close();
    }
  });
});
