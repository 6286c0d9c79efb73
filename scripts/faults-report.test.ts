import { describe, expect, it } from 'vitest';
import { replaceSection } from './faults-report.js';

describe('faults:report replaceSection', () => {
  const doc = '# R\n\nintro\n\n## Bad inputs\n\nold figures\n\n## Prompt injection\n\nkept\n';

  it('replaces one section body and leaves the others as they are', () => {
    expect(replaceSection(doc, 'Bad inputs', 'new figures')).toBe(
      '# R\n\nintro\n\n## Bad inputs\n\nnew figures\n\n## Prompt injection\n\nkept\n',
    );
    expect(replaceSection(doc, 'Prompt injection', 'n')).toBe(
      '# R\n\nintro\n\n## Bad inputs\n\nold figures\n\n## Prompt injection\n\nn\n',
    );
  });

  it('refuses a section the doc does not have', () => {
    expect(() => replaceSection(doc, 'Scale-out', 'x')).toThrow(/no section "## Scale-out"/);
  });
});
