import { describe, expect, it } from 'vitest';
import { requireModel } from './require-model.js';

describe('requireModel', () => {
  it('returns the model it was given', () => {
    expect(requireModel('openai:gpt-4.1-mini', { problem: 'p' })).toBe('openai:gpt-4.1-mini');
  });

  it.each([undefined, '', 'extractive'])(
    'throws MODEL_REQUIRED for %j when extractive is no model',
    (model) => {
      expect(() =>
        requireModel(model, { problem: 'Recipes need a model.', notAModel: ['extractive'] }),
      ).toThrow(expect.objectContaining({ code: 'MODEL_REQUIRED', problem: 'Recipes need a model.' }));
    },
  );

  it('uses the fix it is given, else the default one', () => {
    expect(() => requireModel(undefined, { problem: 'p', fix: 'Pass --judge.' })).toThrow(
      expect.objectContaining({ fix: 'Pass --judge.' }),
    );
    expect(() => requireModel(undefined, { problem: 'p' })).toThrow(
      expect.objectContaining({ fix: expect.stringMatching(/--model/) }),
    );
  });
});
