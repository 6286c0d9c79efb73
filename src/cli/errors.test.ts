import { describe, expect, it } from 'vitest';
import { CitegeistError } from '../core/index.js';
import { reportError } from './errors.js';
import { memoryIo } from './io.js';

describe('reportError', () => {
  it('prints where a located error is, between problem and fix', () => {
    const { io, stderr } = memoryIo();
    const error = new CitegeistError(
      'INVALID_CSV',
      'a.csv line 3: 1 field(s) where the header has 2.',
      'Fix it.',
      {
        where: { file: 'a.csv', line: 3 },
      },
    );
    expect(reportError(error, io, false)).toBe(1);
    expect(stderr()).toBe(
      'error [INVALID_CSV]: a.csv line 3: 1 field(s) where the header has 2.\n  where: a.csv line 3\n  fix: Fix it.\n',
    );
  });

  it('prints no where line for an error without a location', () => {
    const { io, stderr } = memoryIo();
    reportError(new CitegeistError('MODEL_REQUIRED', 'No model.', 'Pass --model.'), io, false);
    expect(stderr()).toBe('error [MODEL_REQUIRED]: No model.\n  fix: Pass --model.\n');
  });
});
