import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readDocumentFile } from '../src/ingest/index.js';
import { sharedDataPath } from '../src/testing/shared-data.js';
import { excludeReason, measurePaper, swapAdjacent } from './gold-quotes.js';

describe('gold quotes on the ingested ACL PDFs (issue 3 acceptance)', () => {
  it('locates at least 96% with strict matching and accepts at most 1% of swapped variants', async () => {
    let sentences = 0;
    let located = 0;
    let swapped = 0;
    let falseAccepts = 0;
    for (const id of ['N18-3011', '2020.acl-main.207']) {
      const [doc] = await readDocumentFile(sharedDataPath('papers', 'pdf', `${id}.pdf`));
      const gold = JSON.parse(readFileSync(sharedDataPath('papers', 'gold', `${id}.s2orc.json`), 'utf8'));
      const m = measurePaper(id, doc!.text, gold);
      sentences += m.sentences;
      located += m.located;
      swapped += m.swapped;
      falseAccepts += m.falseAccepts;
    }
    expect(sentences).toBeGreaterThan(350);
    expect(located / sentences).toBeGreaterThanOrEqual(0.96);
    expect(falseAccepts / swapped).toBeLessThanOrEqual(0.01);
  }, 60_000);
});

describe('gold filter and swap', () => {
  it.each([
    ['We instantiate a directed edge from paper nodes p 1 ! p 2 for each p 2.', 'math'],
    ['The TagMe APIs are described at https://sobigdata.d4science.org/web/tagme.', 'url'],
    ['bibliography titles 89.3 89.4 89.3 bibliography authors 97.1 97.0 97.0', 'table'],
    ['to improve ranking (e.g., Xiong et al., Figure 1 : Part of the literature graph. 2017).', 'caption'],
    ['embeddings (Tu et al., 2017; ) have yet to incorporate pretrained language models.', 'citation'],
    ['We describe a deployed scalable system for organizing published scientific literature.', null],
    ['Consider the path between author X and Paul Erdős such that all edges are labeled.', null],
  ])('%s → %s', (sentence, reason) => {
    expect(excludeReason(sentence)).toBe(reason);
  });
  it.each([
    ['one two three four', 'one three two four'],
    ['the the the', null],
    ['A 1 b', null],
  ])('swaps the middle pair of %j', (sentence, expected) => {
    expect(swapAdjacent(sentence)).toBe(expected);
  });
});
