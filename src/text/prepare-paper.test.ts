import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { matchQuote } from './match-quote.js';
import {
  MATCH_FORMS_VERSION,
  matchForms,
  noSpaceForm,
  noSpaceString,
  preparePaper,
} from './prepare-paper.js';

describe('noSpaceForm', () => {
  it.each([
    ['', ''],
    ['a b', 'ab'],
    ['sci- ence', 'science'],
    ['sci-ence', 'sci-ence'],
    ['well - known', 'wellknown'],
    ['- - x', 'x'],
    ['a -', 'a-'],
  ])('noSpaceForm(%j) = %j, and noSpaceString agrees', (input, expected) => {
    const form = noSpaceForm(input);
    expect(form.text).toBe(expected);
    expect(noSpaceString(input)).toBe(expected);
    for (let i = 0; i < form.text.length; i++) expect(input[form.toNormalized[i]!]).toBe(form.text[i]);
  });
});

describe('preparePaper', () => {
  it('normalises once and indexes tokens, hyphen splits and line breaks', () => {
    const paper = preparePaper('The Sci-\nence of [12] Parsing\nHeader 3\nends here.');
    expect(paper.normalized.text).toBe('the sci- ence of [12] parsing header 3 ends here.');
    expect(paper.noSpace.text).toBe('thescienceof[12]parsingheader3endshere.');
    const { tokens, hyphenJoins, breakAfter, vocabulary } = paper.tokenIndex;
    expect(tokens.text.slice(0, 4)).toEqual(['the', 'sci', '-', 'ence']);
    expect(hyphenJoins.get('science')).toEqual([1]);
    const marked = tokens.text.filter((_, i) => breakAfter[i] === 1);
    expect(marked).toEqual(['-', 'parsing', '3']);
    expect(vocabulary.has('parsing')).toBe(true);
    expect(paper.normalizedIndex.indexOf('of [12] parsing')).toBe(
      paper.normalized.text.indexOf('of [12] parsing'),
    );
  });

  it('handles an empty paper', () => {
    const paper = preparePaper('');
    expect(paper.normalized.text).toBe('');
    expect(paper.tokenIndex.tokens.length).toBe(0);
    expect(paper.normalizedIndex.indexOf('anything at all here')).toBe(-1);
  });
});

describe('matchForms', () => {
  // Texts that exercise every normalisation rule: ligatures, folded quotes and dashes, collapsed
  // whitespace, NFKD expansions, surrogate pairs, line-break hyphens, and plain ASCII.
  const texts = [
    '',
    '   ',
    'Plain ASCII text,\n\n  with  runs of   whitespace\tand a line-\nbreak hyphen.',
    '  The \uFB01rst \u201Cquoted\u201D result \u2014 x\u00B2 = 4\u00A0m; Caf\u00E9 \u{1D400}BC \u{1F600}\n',
    'sci- ence - well - known -\n- x',
  ];

  it.each(texts)('preparePaper(text, { forms: matchForms(text) }) equals preparePaper(text) (%j)', (text) => {
    const fresh = preparePaper(text);
    const stored = preparePaper(text, { forms: matchForms(text) });
    expect(stored.normalized.text).toBe(fresh.normalized.text);
    expect([...stored.normalized.offsets]).toEqual([...fresh.normalized.offsets]);
    expect(stored.noSpace.text).toBe(fresh.noSpace.text);
    expect([...stored.noSpace.toNormalized]).toEqual([...fresh.noSpace.toNormalized]);
    const [a, b] = [stored.tokenIndex, fresh.tokenIndex];
    expect(a.tokens).toEqual(b.tokens);
    expect([a.ids, a.postingStart, a.positions, a.splitAt, a.breakAfter]).toEqual([
      b.ids,
      b.postingStart,
      b.positions,
      b.splitAt,
      b.breakAfter,
    ]);
    expect([...a.vocabulary]).toEqual([...b.vocabulary]);
    expect([...a.hyphenJoins]).toEqual([...b.hyphenJoins]);
  });

  it('stores the offsets as a few jumps', () => {
    const forms = matchForms('A  b\n\nc \uFB01d');
    expect(forms.normalized).toBe('a b c fid');
    // a←0 " "←1 b←3 " "←4 c←6 " "←7 f←8 i←8 (ﬁ) d←9: jumps at b, c and i.
    expect([...forms.jumps]).toEqual([0, 0, 2, 3, 4, 6, 7, 8]);
  });

  it('ignores forms of another version or that do not fit the text', () => {
    const text = 'The \uFB01rst result.';
    const forms = matchForms(text);
    const stale = { ...forms, version: MATCH_FORMS_VERSION + 1, normalized: 'something else entirely' };
    expect(preparePaper(text, { forms: stale }).normalized.text).toBe('the first result.');
    const foreign = matchForms(`${text} And a much longer paper around it, with more words.`);
    expect(preparePaper(text, { forms: foreign }).normalized.text).toBe('the first result.');
  });

  it(`has version ${MATCH_FORMS_VERSION} for the current normaliser and tokenizer (bump MATCH_FORMS_VERSION when this fails)`, () => {
    // A digest of the forms of the texts above. When the normaliser or the no-space form changes,
    // stored forms must be invalidated: bump MATCH_FORMS_VERSION and update the pinned digest.
    const digest = createHash('sha256');
    for (const text of texts) {
      const forms = matchForms(text);
      const t = forms.tokens;
      digest.update(`${forms.normalized}\u0000${forms.noSpace}\u0000${[...forms.jumps].join(',')}\u0000`);
      digest.update(`${JSON.stringify(t.vocabulary)}\u0000`);
      for (const a of [t.start, t.end, t.ids, t.kind, t.splitAt, t.breakAfter])
        digest.update(`${a.join(',')}\u0000`);
    }
    expect({ version: MATCH_FORMS_VERSION, digest: digest.digest('hex').slice(0, 16) }).toEqual({
      version: 1,
      digest: 'db8d1d3fae9ea7fc',
    });
  });
});

describe('skippable spans', () => {
  it('lets the gapped rule skip a recorded marker that no marker shape covers', () => {
    const text = 'The model {Lee:2020} outperforms the baseline on every task we tried.';
    const quote = 'The model outperforms the baseline on every task we tried.';
    expect(matchQuote(preparePaper(text), quote, { mode: 'strict' }).matched).toBe(false);
    const start = text.indexOf('{');
    const skippable = [{ start, end: text.indexOf('}') + 1 }];
    const match = matchQuote(preparePaper(text, { skippable }), quote, { mode: 'strict' });
    expect([match.matched, match.rule]).toEqual([true, 'gapped']);
    const dropped = 'The model the baseline on every task we tried.';
    expect(matchQuote(preparePaper(text, { skippable }), dropped, { mode: 'strict' }).matched).toBe(false);
    // Markers are not part of the stored forms: they are marked when the token index is made.
    const fromForms = preparePaper(text, { forms: matchForms(text), skippable });
    expect(matchQuote(fromForms, quote, { mode: 'strict' }).rule).toBe('gapped');
    expect(
      matchQuote(preparePaper(text, { forms: matchForms(text) }), quote, { mode: 'strict' }).matched,
    ).toBe(false);
  });
});
