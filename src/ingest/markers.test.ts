import { describe, expect, it } from 'vitest';
import { DocumentBuilder } from './document-builder.js';
import { findMarkers } from './markers.js';

function doc(body: string[], references: string[], footnotes: string[] = []) {
  const b = new DocumentBuilder();
  b.heading('1 Introduction', 1);
  for (const t of body) b.paragraph(t);
  for (const t of footnotes) b.paragraph(t, 'footnote');
  b.heading('References', 1);
  for (const t of references) b.paragraph(t, 'reference');
  return b.build({ id: 'd', title: '', source: 'pdf', meta: {} });
}

const shown = (d: ReturnType<typeof doc>) =>
  findMarkers(d).map((m) => ({ text: d.text.slice(m.start, m.end), kind: m.kind, targets: m.targets }));

describe('markers', () => {
  it('finds numeric citations and links them to labelled entries', () => {
    const d = doc(['Prior work [1, 3–4] and [2] differ.'], ['[1] A.', '[2] B.', '[3] C.', '[4] D.']);
    const refs = d.paragraphs.filter((p) => p.kind === 'reference').map((p) => p.id);
    expect(shown(d)).toEqual([
      { text: '[1, 3–4]', kind: 'citation', targets: [refs[0], refs[2], refs[3]] },
      { text: '[2]', kind: 'citation', targets: [refs[1]] },
    ]);
  });

  it('links author–year citations by first author and year, and narrative ones by the name before', () => {
    const d = doc(
      ['Transformers (Vaswani et al., 2017; Devlin et al., 2019a) help, as Lee and Kim (2020) show.'],
      [
        'Devlin, J., Chang, M. 2019a. BERT.',
        'Devlin, J., Chang, M. 2019b. Other.',
        'Lee, A. and Kim, B. 2020. A study.',
        'Vaswani, A. et al. 2017. Attention.',
      ],
    );
    const refs = d.paragraphs.filter((p) => p.kind === 'reference').map((p) => p.id);
    expect(shown(d)).toEqual([
      { text: '(Vaswani et al., 2017; Devlin et al., 2019a)', kind: 'citation', targets: [refs[3], refs[0]] },
      { text: '(2020)', kind: 'citation', targets: [refs[2]] },
    ]);
  });

  it('finds footnote markers after words and links them to the footnote', () => {
    const d = doc(
      ['The system performance,¹⁴ except here.*'],
      [],
      ['¹⁴ A footnote.', '* Equal contribution.'],
    );
    const fns = d.paragraphs.filter((p) => p.kind === 'footnote').map((p) => p.id);
    expect(shown(d)).toEqual([
      { text: '¹⁴', kind: 'footnote', targets: [fns[0]] },
      { text: '*', kind: 'footnote', targets: [fns[1]] },
    ]);
  });

  it('takes raised runs that read as mathematics for exponents, not markers', () => {
    const d = doc(
      [
        'Here κ = 8πG/c⁴ and 10²⁵ cm, the χ² test, sin² θ, (p² + m²)¹/² and v∗ = 60 km.',
        'The model⁶ [30] of deep learning (DL)¹ and the AI² systems.',
      ],
      [],
      ['¹ One.', '² Two.', '⁶ Six.'],
    );
    expect(shown(d).map((m) => m.text)).toEqual(['⁶', '[30]', '¹', '²']);
  });

  it('takes a raised run after a lone letter for a marker when its footnote is on the same page', () => {
    const b = new DocumentBuilder();
    b.heading('1 Introduction', 1, 1);
    b.paragraph('The set T¹ is small, and so is c².', 'body', 1);
    b.paragraph('¹ T is defined in the appendix.', 'footnote', 1);
    b.paragraph('² On another page.', 'footnote', 2);
    const d = b.build({ id: 'd', title: '', source: 'pdf', meta: {} });
    const fn = d.paragraphs.find((p) => p.kind === 'footnote')!.id;
    expect(findMarkers(d).map((m) => [d.text.slice(m.start, m.end), m.targets])).toEqual([['¹', [fn]]]);
  });

  it('takes no parenthesis for a citation without a name before its year', () => {
    expect(shown(doc(['We used n = 12 (n = 2019) samples and (see Section 2).'], []))).toEqual([]);
  });
});
