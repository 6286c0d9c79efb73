import { describe, expect, it } from 'vitest';
import { splitSentences } from './split-sentences.js';

const texts = (input: string) => splitSentences(input).map((s) => s.text);

describe('splitSentences', () => {
  it.each([
    ['empty', '', []],
    ['whitespace only', '  \n ', []],
    ['one sentence without a period', 'A sentence', ['A sentence']],
    ['two plain sentences', 'We train a model. It works well.', ['We train a model.', 'It works well.']],
    ['question and exclamation', 'Does it work? Yes! It does.', ['Does it work?', 'Yes!', 'It does.']],
    [
      'et al. before a year',
      'Smith et al. (2019) showed this. We agree.',
      ['Smith et al. (2019) showed this.', 'We agree.'],
    ],
    [
      'et al. before a name-like word',
      'As Smith et al. Jones noted, it holds.',
      ['As Smith et al. Jones noted, it holds.'],
    ],
    [
      'et al. ending a sentence',
      'This was shown by Smith et al. We extend it.',
      ['This was shown by Smith et al.', 'We extend it.'],
    ],
    [
      'e.g. and i.e.',
      'Models, e.g. BERT, work; i.e. They are strong.',
      ['Models, e.g. BERT, work; i.e. They are strong.'],
    ],
    [
      'e.g., with comma',
      'Some tasks (e.g., QA) are hard. Others are not.',
      ['Some tasks (e.g., QA) are hard.', 'Others are not.'],
    ],
    [
      'cf. and vs.',
      'Compare BERT vs. GPT (cf. Table 2). Both work.',
      ['Compare BERT vs. GPT (cf. Table 2).', 'Both work.'],
    ],
    [
      'Fig. 3',
      'As shown in Fig. 3, accuracy rises. It then falls.',
      ['As shown in Fig. 3, accuracy rises.', 'It then falls.'],
    ],
    [
      'Figs. and Eq.',
      'See Figs. 2 and 3 and Eq. 4 for details. Done.',
      ['See Figs. 2 and 3 and Eq. 4 for details.', 'Done.'],
    ],
    [
      'Tab. Sec. No.',
      'Tab. 2 in Sec. 4 lists No. 7 only. Next.',
      ['Tab. 2 in Sec. 4 lists No. 7 only.', 'Next.'],
    ],
    ['approx.', 'It takes approx. 5 hours. Then it stops.', ['It takes approx. 5 hours.', 'Then it stops.']],
    [
      'p < 0.05',
      'The effect was significant (p < 0.05). We report it.',
      ['The effect was significant (p < 0.05).', 'We report it.'],
    ],
    [
      'dose with decimals',
      'Mice received 3.5 mg/kg daily. Weight fell by 2.1%.',
      ['Mice received 3.5 mg/kg daily.', 'Weight fell by 2.1%.'],
    ],
    [
      'initials',
      'The method of J. R. Smith is used. It is old.',
      ['The method of J. R. Smith is used.', 'It is old.'],
    ],
    [
      'numeric citation after the period',
      'This is known.[12] We build on it.',
      ['This is known.[12]', 'We build on it.'],
    ],
    [
      'citation before the period',
      'This is known [12]. We build on it.',
      ['This is known [12].', 'We build on it.'],
    ],
    [
      'author-year citation before the period',
      'It was proposed earlier (Smith et al., 2019). We use it.',
      ['It was proposed earlier (Smith et al., 2019).', 'We use it.'],
    ],
    [
      'ellipsis mid-sentence',
      'We tried one... two and three. Done.',
      ['We tried one... two and three.', 'Done.'],
    ],
    [
      'ellipsis ending a sentence',
      'We waited\u2026 Nothing happened.',
      ['We waited\u2026', 'Nothing happened.'],
    ],
    [
      'closing quote after the period',
      'He said "it works." Then he left.',
      ['He said "it works."', 'Then he left.'],
    ],
    [
      'closing bracket after the period',
      '(This is an aside.) The main text goes on.',
      ['(This is an aside.)', 'The main text goes on.'],
    ],
    [
      'sentence starting with a digit',
      'We used two sets. 500 samples were held out.',
      ['We used two sets.', '500 samples were held out.'],
    ],
    [
      'lowercase start after a real word',
      'Levels were measured. mRNA levels rose.',
      ['Levels were measured.', 'mRNA levels rose.'],
    ],
    [
      'lowercase after short abbreviations',
      'We report the std. dev. of the mean.',
      ['We report the std. dev. of the mean.'],
    ],
    ['U.S. before lowercase', 'Data from the U.S. were used.', ['Data from the U.S. were used.']],
    [
      'etc. before uppercase',
      'We use cats, dogs, etc. The rest is noise.',
      ['We use cats, dogs, etc.', 'The rest is noise.'],
    ],
    ['factorial is no boundary', 'There are n! ways. Count them.', ['There are n! ways.', 'Count them.']],
    ['paragraph break', '## Methods\n\nWe train a model', ['## Methods', 'We train a model']],
    [
      'version numbers and URLs',
      'Use v2.1.3 from example.org now. Thanks.',
      ['Use v2.1.3 from example.org now.', 'Thanks.'],
    ],
  ])('%s', (_name, input, expected) => {
    expect(texts(input)).toEqual(expected);
  });

  it('returns spans into the original text', () => {
    const input = '  First one.  Second one. ';
    for (const s of splitSentences(input)) expect(input.slice(s.start, s.end)).toBe(s.text);
    expect(splitSentences(input).map((s) => [s.start, s.end])).toEqual([
      [2, 12],
      [14, 25],
    ]);
  });
});
