import { describe, expect, it } from 'vitest';
import type { FaithfulnessInput } from './input.js';
import { planFaithfulness } from './plan.js';

const input: FaithfulnessInput = {
  id: 'a',
  question: 'Q',
  answer: 'One. Two [1].\n\nUncited sentence.',
  sources: { '1': 'x' },
  layout: 'native',
};

describe('planFaithfulness', () => {
  it.each([
    ['separate', 1, { segments: 2, estimatedClaims: 3, decomposer: 2, verifier: 2, harm: 3 }],
    ['separate', 3, { segments: 2, estimatedClaims: 3, decomposer: 2, verifier: 6, harm: 9 }],
    ['joint', 1, { segments: 2, estimatedClaims: 3, decomposer: 2, verifier: 3, harm: 0 }],
  ] as const)('%s × %i repeats', (mode, repeats, expected) => {
    const plan = planFaithfulness([input], { mode, repeats, rubric: 'R' });
    expect({
      segments: plan.segments,
      estimatedClaims: plan.estimatedClaims,
      decomposer: plan.decomposer.length,
      verifier: plan.verifier.length,
      harm: plan.harm.length,
    }).toEqual(expected);
  });
});
