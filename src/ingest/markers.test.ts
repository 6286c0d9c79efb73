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

  it('takes no parenthesis for a citation without a name before its year', () => {
    expect(shown(doc(['We used n = 12 (n = 2019) samples and (see Section 2).'], []))).toEqual([]);
  });
});
