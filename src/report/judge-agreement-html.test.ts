import { describe, expect, it } from 'vitest';
import type { CardNote } from '../grade/index.js';
import { renderJudgeAgreement } from './judge-agreement-html.js';

const interval = (estimate: number, lower: number, upper: number) => ({
  estimate,
  lower,
  upper,
  confidence: 0.95,
  iterations: 200,
  seed: 0,
  undefinedResamples: 0,
});

const base: CardNote = {
  what: 'rubric judge',
  judge: 'openai:<script>alert(1)</script>',
  prompt_version: 'abc"def',
  uncertified: null,
  metrics: ['factual_accuracy'],
  card: 'cards/<b>x</b>-card.json',
  found: true,
  set: 'ragchecker/overall',
  measure: 'alpha',
  measure_name: "Krippendorff's α",
  agreement: interval(0.541, 0.482, 0.594),
  ceiling: interval(0.684, 0.602, 0.752),
  line: '',
  searched: [],
};

describe('renderJudgeAgreement', () => {
  it('shows agreement and ceiling with their intervals, every card value escaped', () => {
    const html = renderJudgeAgreement([base]);
    expect(html).toContain('0.541 <span class="ci">[0.482, 0.594]</span>');
    expect(html).toContain('0.684 <span class="ci">[0.602, 0.752]</span>');
    expect(html).toContain('Krippendorff&#39;s α');
    expect(html).not.toMatch(/<script>|<b>x/);
    expect(html).toContain('openai:&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('abc&quot;def');
    expect(html).toContain('(found in the workspace)');
  });

  it('says plainly when a judge has no card, and where it was looked for', () => {
    const html = renderJudgeAgreement([
      { ...base, card: null, found: false, agreement: null, ceiling: null, searched: ['.', 'judge-cards'] },
    ]);
    expect(html).toMatch(
      /no judge card found \(searched \., judge-cards\): agreement with people not measured/,
    );
  });

  it("under --require-agreement names an uncertified judge's metrics as shown, not ranked, escaped", () => {
    const html = renderJudgeAgreement([
      { ...base, uncertified: '--require-agreement 0.6: <i>below</i> 0.6.' },
    ]);
    expect(html).toContain('<strong>Uncertified:</strong> factual_accuracy shown, not ranked');
    expect(html).toContain('&lt;i&gt;below&lt;/i&gt;');
    expect(renderJudgeAgreement([base])).not.toContain('Uncertified');
  });
});
