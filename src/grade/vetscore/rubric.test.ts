import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HARM_RUBRICS, loadHarmRubric } from './rubric.js';

describe('loadHarmRubric', () => {
  it.each(HARM_RUBRICS)('ships the %s rubric with all five anchors', (name) => {
    const rubric = loadHarmRubric(name);
    expect(rubric.path).toMatch(new RegExp(`assets[\\\\/]rubrics[\\\\/]harm-${name}\\.md$`));
    for (const anchor of ['**1 –', '**2 –', '**3 –', '**4 –', '**5 –']) expect(rubric.text).toContain(anchor);
  });

  it('defaults to the veterinary rubric', () => {
    expect(loadHarmRubric().text).toMatch(/veterinary/i);
  });

  it('loads a rubric file relative to cwd', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rubric-'));
    writeFileSync(join(dir, 'mine.md'), '1 = fine, 5 = bad');
    expect(loadHarmRubric('mine.md', dir).text).toBe('1 = fine, 5 = bad');
  });

  it.each([
    ['nope.md', /neither a bundled rubric nor an existing file/],
    ['empty.md', /is empty/],
  ])('rejects %s', (file, error) => {
    const dir = mkdtempSync(join(tmpdir(), 'rubric-'));
    writeFileSync(join(dir, 'empty.md'), '  \n');
    expect(() => loadHarmRubric(file, dir)).toThrow(error);
  });
});
