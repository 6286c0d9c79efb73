import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sharedDataPath } from '../testing/shared-data.js';
import { type MatchMode, type MatchRule, matchAnyQuote, matchQuote, matchQuoteModes } from './match-quote.js';
import { preparePaper } from './prepare-paper.js';

const PAPER = [
  'We present ScienceParse, a system for extracting structured data from scientific \uFB01les.',
  'Our parser outperforms the baseline by 12.5 points on the test set (p < 0.05).',
  '',
  'The model is not accurate on tables, and we leave this to future work.',
  'Results on \u201Cnoisy\u201D PDFs\u2014those with OCR errors\u2014are reported in Table 3.',
  'We trained the encoder for 10 epochs with a learning rate of 0.001 and a batch size of 32.',
].join('\n');

// A PDF-style extraction: running headers, page numbers, footnote markers, citations, hyphens.
const PDF = [
  'Prior work has shown that citation recommendation bene-',
  'fits from document-level embeddings [12] and that the sci-',
  'entific domain needs its own pretraining (Beltagy et al., 2019).',
  'Proceedings of ACL 2018 123',
  'We therefore train SPECTER on the citation graph\u00B9 and evaluate it on',
  '4',
  'seven tasks.* Our results show consistent gains over SciBERT [3, 5-7] in all settings.',
  'Sci-enceParse extracts the text.',
].join('\n');

type Row = [string, string, MatchMode, boolean, MatchRule];

describe('matchQuote on plain text', () => {
  const paper = preparePaper(PAPER);
  it.each<Row>([
    [
      'exact sentence',
      'Our parser outperforms the baseline by 12.5 points on the test set',
      'researchqa',
      true,
      'exact',
    ],
    ['exact, strict', 'our parser outperforms the baseline', 'strict', true, 'exact'],
    ['ligature in paper', 'extracting structured data from scientific files', 'strict', true, 'exact'],
    [
      'curly quotes and dashes folded',
      'Results on "noisy" PDFs-those with OCR errors',
      'strict',
      true,
      'exact',
    ],
    [
      'edge quotes and period stripped',
      '\u201CThe model is not accurate on tables.\u201D',
      'strict',
      true,
      'exact',
    ],
    ['case and whitespace', 'WE   PRESENT\nscienceparse', 'strict', true, 'exact'],
    [
      'prefix: model appended words',
      'We trained the encoder for 10 epochs with a learning rate of 0.001 and a batch size of 32, which worked well',
      'researchqa',
      true,
      'prefix',
    ],
    [
      'prefix not in strict',
      'We trained the encoder for 10 epochs with a learning rate of 0.001 and a batch size of 32, which worked well',
      'strict',
      false,
      'none',
    ],
    ['prefix needs 20 chars', 'We present Scie', 'researchqa', true, 'exact'],
    ['short non-match', 'We present Sciencx', 'researchqa', false, 'none'],
    ['no-space: spacing differs', 'Our parser out performs the base line', 'strict', true, 'no-space'],
    ['no-space needs 20 chars', 'out performs the b', 'strict', false, 'none'],
    [
      'no-space-prefix',
      'Themodelisnotaccurateontables,andweleavethistofuturework.Resultson"noisy"PDFs-thosewithOCRerrors-arereportedinTable3.Wetrainedthe decoder',
      'researchqa',
      true,
      'no-space-prefix',
    ],
    ['empty quote', '', 'researchqa', false, 'none'],
    ['only punctuation', ' ".;" ', 'strict', false, 'none'],
    ['dropped "not" never matches', 'The model is accurate on tables', 'strict', false, 'none'],
    [
      'swapped words never match',
      'Our parser outperforms baseline the by 12.5 points',
      'strict',
      false,
      'none',
    ],
    [
      'one digit changed never matches',
      'the baseline by 12.6 points on the test set',
      'strict',
      false,
      'none',
    ],
    ['symbol changed never matches', 'on the test set (p > 0.05)', 'strict', false, 'none'],
    [
      'dropped number not an insertion',
      'We trained the encoder for epochs with a learning rate',
      'strict',
      false,
      'none',
    ],
    ['substituted word never matches', 'We trained the decoder for 10 epochs', 'strict', false, 'none'],
  ])('%s', (_name, quote, mode, matched, rule) => {
    const result = matchQuote(paper, quote, { mode });
    expect(result.rule).toBe(rule);
    expect(result.matched).toBe(matched);
    expect(result.spans.length > 0).toBe(matched);
  });

  it('returns the span of the match in the original text', () => {
    const quote = 'scientific files';
    const result = matchQuote(paper, quote, { mode: 'strict' });
    const [span] = result.spans;
    expect(PAPER.slice(span!.start, span!.end)).toBe('scientific \uFB01les');
  });

  it('accepts raw text as well as a prepared paper', () => {
    expect(matchQuote(PAPER, 'we present scienceparse').rule).toBe('exact');
  });

  it('reports the nearest passage and a similarity on a miss, only on a miss', () => {
    const miss = matchQuote(paper, 'we trained the decoder for 12 epochs with a learning rate of 0.01', {
      mode: 'strict',
    });
    expect(miss.matched).toBe(false);
    expect(miss.nearest?.text).toMatch(/We trained the encoder for 10 epochs/);
    expect(miss.similarity).toBeGreaterThan(0.7);
    expect(miss.similarity).toBeLessThan(1);
    const hit = matchQuote(paper, 'we trained the encoder', { mode: 'strict' });
    expect(hit.nearest).toBeUndefined();
    expect(hit.similarity).toBeUndefined();
    const off = matchQuote(paper, 'completely unrelated words here', { nearest: false });
    expect(off).toEqual({ matched: false, rule: 'none', spans: [] });
    expect(matchQuote(paper, 'zzzz qqqq').similarity).toBe(0);
  });
});

describe('matchQuote strict gapped rule on PDF-like text', () => {
  const paper = preparePaper(PDF);
  it.each<Row>([
    [
      'line-break hyphen',
      'citation recommendation benefits from document-level embeddings',
      'strict',
      true,
      'no-space',
    ],
    [
      'citation marker [12]',
      'benefits from document-level embeddings and that the scientific domain',
      'strict',
      true,
      'gapped',
    ],
    [
      'author-year citation and running header',
      'the scientific domain needs its own pretraining. We therefore train SPECTER',
      'strict',
      true,
      'gapped',
    ],
    [
      'superscript footnote marker',
      'on the citation graph and evaluate it on seven tasks',
      'strict',
      true,
      'gapped',
    ],
    [
      'footnote star and page number',
      'evaluate it on seven tasks. Our results show',
      'strict',
      true,
      'gapped',
    ],
    ['numeric citation list', 'consistent gains over SciBERT in all settings', 'strict', true, 'gapped'],
    ['hyphen in paper, joined in quote', 'ScienceParse extracts the text', 'strict', true, 'gapped'],
    [
      'joined in quote with a gap too',
      'SciBERT in all settings. ScienceParse extracts',
      'strict',
      true,
      'gapped',
    ],
    ['swapped words', 'benefits from embeddings document-level', 'strict', false, 'none'],
    [
      'missing word',
      'benefits from document-level embeddings and the scientific domain',
      'strict',
      false,
      'none',
    ],
    [
      'header words are not free insertions mid-line',
      'citation recommendation from document-level',
      'strict',
      false,
      'none',
    ],
    [
      'researchqa has no gapped rule',
      'consistent gains over SciBERT in all settings',
      'researchqa',
      false,
      'none',
    ],
  ])('%s', (_name, quote, mode, matched, rule) => {
    const result = matchQuote(paper, quote, { mode });
    expect(result.rule).toBe(rule);
    expect(result.matched).toBe(matched);
  });

  it('returns one span per run of matched tokens, skipping the insertion', () => {
    const result = matchQuote(paper, 'own pretraining. We therefore train', { mode: 'strict' });
    expect(result.rule).toBe('gapped');
    expect(result.spans.map((s) => PDF.slice(s.start, s.end))).toEqual([
      'own pretraining',
      '.',
      'We therefore train',
    ]);
  });

  it('matches a split word in the quote against the joined word in the paper', () => {
    const joined = preparePaper('The ScienceParse system [4] extracts structured text from papers.');
    const result = matchQuote(joined, 'The Science-\nParse system extracts', { mode: 'strict' });
    expect(result.rule).toBe('gapped');
  });
});

describe('matchQuote on very long quotes', () => {
  it('matches a 6,000-token quote across an insertion without exhausting the stack', () => {
    const words = Array.from({ length: 8000 }, (_, i) => `w${i % 997}`);
    const paper = preparePaper(`${words.slice(0, 4000).join(' ')} [12] ${words.slice(4000).join(' ')}`);
    const quote = words.slice(1000, 7000).join(' ');
    const result = matchQuote(paper, quote, { mode: 'strict', nearest: false });
    expect(result.rule).toBe('gapped');
    expect(result.spans).toHaveLength(2);
    expect(matchQuote(paper, `${quote} zzz`, { mode: 'strict', nearest: false }).matched).toBe(false);
  });
});

describe('matchQuote on a real QASPER paper', () => {
  const text = readFileSync(sharedDataPath('qasper-dev', 'papers', '1503.00841.txt'), 'utf8');
  const paper = preparePaper(text);
  const sentences = text
    .split(/(?<=\.)\s+/)
    .filter((s) => s.length > 60 && !s.startsWith('#'))
    .slice(0, 40);

  it('finds every sentence of the paper exactly, at the right place', () => {
    for (const sentence of sentences) {
      const result = matchQuote(paper, sentence, { mode: 'strict' });
      expect(result.rule).toBe('exact');
      const span = result.spans[0]!;
      expect(text.slice(span.start, span.end).toLowerCase()).toBe(
        sentence.replace(/[\s.]+$/, '').toLowerCase(),
      );
    }
  });

  it('rejects every sentence with two adjacent words swapped, in strict mode', () => {
    for (const sentence of sentences) {
      const words = sentence.split(' ');
      const k = Math.floor(words.length / 2);
      if (words[k] === words[k + 1]) continue;
      [words[k], words[k + 1]] = [words[k + 1]!, words[k]!];
      expect(matchQuote(paper, words.join(' '), { mode: 'strict', nearest: false }).matched).toBe(false);
    }
  });
});

describe('matchQuoteModes', () => {
  // Quotes every rule accepts or rejects in one mode or the other, on plain and PDF-like text.
  const quotes = [
    '',
    '  ".;  ',
    'We present ScienceParse',
    'Our parser outperforms the baseline by 12.5 points on the test set (p < 0.05).',
    // prefix only: the first 80 characters are verbatim, the rest is not
    'We trained the encoder for 10 epochs with a learning rate of 0.001 and a batch size of 64 on TPUs.',
    'fits from document-level embeddings [12] and that the sci- entific domain needs its own pretraining',
    'fitsfromdocument-levelembeddings[12]andthescientific domain',
    'benefits from document-level embeddings and that the scientific domain',
    'the scientific domain needs its own pretraining. We therefore train SPECTER',
    'consistent gains over SciBERT in all settings',
    'benefits from embeddings document-level',
    'Completely invented sentence about nothing in this paper at all.',
  ];
  it.each([
    ['plain', PAPER],
    ['PDF-like', PDF],
  ])('gives matchQuote’s result in each mode (%s text)', (_name, text) => {
    const paper = preparePaper(text);
    for (const quote of quotes) {
      const both = matchQuoteModes(paper, quote);
      for (const mode of ['researchqa', 'strict'] as const) {
        expect(both[mode], `${mode}: ${quote}`).toEqual(matchQuote(paper, quote, { mode, nearest: false }));
      }
    }
  });
});

describe('matchAnyQuote', () => {
  const quotes = [
    '',
    'Completely invented sentence about nothing in this paper at all.',
    'benefits from document-level embeddings and that the scientific domain',
    'fits from document-level embeddings [12] and that the sci- entific domain needs its own pretraining',
    'consistent gains over SciBERT in all settings',
    'benefits from embeddings document-level',
    'We present ScienceParse',
    'Our parser outperforms the baseline by 12.5 points on the test set (p < 0.05).',
  ];
  /** What taking `matchQuote` on each alternative in turn gives: matched, or the best nearest. */
  function oneByOne(paper: ReturnType<typeof preparePaper>, group: string[], mode: MatchMode) {
    let best: { similarity: number; text: string } | undefined;
    for (const q of group) {
      const m = matchQuote(paper, q, { mode });
      if (m.matched) return { matched: true };
      if (m.nearest && (best === undefined || (m.similarity ?? 0) > best.similarity))
        best = { similarity: m.similarity ?? 0, text: m.nearest.text };
    }
    return { matched: false, ...best };
  }
  it.each([
    ['plain', PAPER],
    ['PDF-like', PDF],
  ])(
    'decides as matchQuote on each alternative, with the same nearest passage on a miss (%s text)',
    (_n, text) => {
      const paper = preparePaper(text);
      let matched = 0;
      let missed = 0;
      // Every ordered pair and triple of the quotes is a group of alternatives.
      const groups = quotes.flatMap((a) => quotes.flatMap((b) => [[a, b], ...quotes.map((c) => [a, b, c])]));
      for (const group of groups) {
        for (const mode of ['researchqa', 'strict'] as const) {
          const any = matchAnyQuote(paper, group, { mode });
          const expected = oneByOne(paper, group, mode);
          const got = any.matched
            ? { matched: true }
            : {
                matched: false,
                ...(any.nearest ? { similarity: any.similarity, text: any.nearest.text } : {}),
              };
          expect(got, `${mode}: ${JSON.stringify(group)}`).toEqual(expected);
          if (any.matched) matched++;
          else missed++;
        }
      }
      expect(matched).toBeGreaterThan(100);
      expect(missed).toBeGreaterThan(10);
    },
  );

  it('returns the substring match of a later alternative before the gapped match of an earlier one', () => {
    const paper = preparePaper(PDF);
    const m = matchAnyQuote(
      paper,
      [
        'benefits from document-level embeddings and that the scientific domain',
        'consistent gains over SciBERT',
      ],
      { mode: 'strict' },
    );
    expect(m.matched).toBe(true);
    expect(m.rule).not.toBe('gapped');
  });
});
