import { expect, it } from 'vitest';
import { verifyDemoDataset } from './verify-demo-dataset.js';

it('every evidence quote of the bundled demo dataset is verbatim in its paper, in the section it names', async () => {
  const results = await verifyDemoDataset();
  expect(results.length).toBeGreaterThanOrEqual(17);
  expect(results.filter((r) => !r.ok).map((r) => r.line)).toEqual([]);
}, 60_000);
