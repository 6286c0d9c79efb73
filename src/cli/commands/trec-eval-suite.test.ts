import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { missingSharedData, sharedDataPath, skipWithoutSharedData } from '../../testing/index.js';
import { runTrecEvalSuite } from '../setup/trec-eval-suite.js';

const BUNDLED = join(import.meta.dirname, '..', '..', 'retrieve', 'eval', '__fixtures__', 'trec-eval-10.0');
const SHARED = sharedDataPath('trec', 'nist-test');

describe("trec_eval 10.0's own regression suite (COMMANDS.txt), byte for byte", async () => {
  const cases = await runTrecEvalSuite([BUNDLED, SHARED]);

  it('lists the 15 commands of trec_eval 10.0', () => {
    expect(cases).toHaveLength(15);
  });

  for (const c of cases) {
    const title = `trec_eval ${c.args.join(' ')} → ${c.expected}`;
    if (c.passed === null) {
      const reason = missingSharedData(...c.missing.map((f) => ['trec', 'nist-test', f]));
      it(title, (ctx) => ctx.skip(reason));
      continue;
    }
    it(title, () => {
      expect(c.differingLines, `${c.differingLines} lines differ`).toBe(0);
      expect(c.passed).toBe(true);
    });
  }

  it('runs every command when ../shared is beside the checkout', (ctx) => {
    skipWithoutSharedData(['trec', 'nist-test'])(ctx);
    expect(cases.filter((c) => c.passed === true)).toHaveLength(15);
  });
});
