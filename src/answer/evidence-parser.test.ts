import { describe, expect, it } from 'vitest';
import { markerKeys, parseEvidenceReply, stripMarkers, stripQuoteMarks } from './evidence-parser.js';

const full = `The model reaches 91.2% accuracy [^1] on two datasets [^2, ^3].

---EVIDENCE---
@cite[1]
"Our model reaches 91.2% accuracy
on the test set."
@cite[2]
"We evaluate on SST-2"
@cite[3]
“and on IMDB.”
---END-EVIDENCE---`;

describe('parseEvidenceReply', () => {
  it('parses a well-formed reply: answer, markers, multi-line quotes joined with single spaces', () => {
    const r = parseEvidenceReply(full);
    expect(r.answer).toBe('The model reaches 91.2% accuracy [^1] on two datasets [^2, ^3].');
    expect(r.citations).toEqual([
      { key: '1', quote: 'Our model reaches 91.2% accuracy on the test set.' },
      { key: '2', quote: 'We evaluate on SST-2' },
      { key: '3', quote: 'and on IMDB.' },
    ]);
    expect(r.markers).toEqual(['1', '2', '3']);
    expect(r.danglingMarkers).toEqual([]);
    expect(r.truncated).toBe(false);
    expect(r.hasEvidenceBlock).toBe(true);
  });

  it.each([
    ['empty', '', '', [], false],
    ['whitespace', '  \n\n ', '', [], false],
    ['no block', 'Just an answer [^1].', 'Just an answer [^1].', [], false],
    [
      'truncated mid-quote',
      'A [^1].\n---EVIDENCE---\n@cite[1]\n"Our model rea',
      'A [^1].',
      [{ key: '1', quote: 'Our model rea' }],
      true,
    ],
    ['truncated after marker', 'A [^1].\n---EVIDENCE---\n@cite[1]', 'A [^1].', [], true],
    ['truncated inside start marker', 'A [^1].\n---EVID', 'A [^1].', [], false],
    [
      'missing end marker',
      'A.\n---EVIDENCE---\n@cite[1]\nq one\n@cite[2]\nq two',
      'A.',
      [
        { key: '1', quote: 'q one' },
        { key: '2', quote: 'q two' },
      ],
      true,
    ],
    ['no start marker, cite lines', 'A [^1].\n@cite[1]\n"q"', 'A [^1].', [{ key: '1', quote: 'q' }], true],
    [
      'duplicate keys keep the first',
      'A.\n---EVIDENCE---\n@cite[1]\nfirst\n@cite[1]\nsecond\n---END-EVIDENCE---',
      'A.',
      [{ key: '1', quote: 'first' }],
      false,
    ],
    [
      'citation without text dropped',
      'A.\n---EVIDENCE---\n@cite[1]\n\n@cite[2]\n""\n@cite[3]\nkept\n---END-EVIDENCE---',
      'A.',
      [{ key: '3', quote: 'kept' }],
      false,
    ],
    [
      'inline quote and colon',
      'A.\n---EVIDENCE---\n@cite[1]: "inline quote"\n---END-EVIDENCE---',
      'A.',
      [{ key: '1', quote: 'inline quote' }],
      false,
    ],
    [
      'chatty: stray text in and after block, code fences',
      'Sure! Here you go.\n\nA [^1].\n---EVIDENCE---\nHere are my quotes:\n```\n@cite[1]\n"q"\n```\n---END-EVIDENCE---\nHope this helps!\n@cite[2]\nafter',
      'Sure! Here you go.\n\nA [^1].',
      [{ key: '1', quote: 'q' }],
      false,
    ],
    [
      'leading zeros and caret in key',
      'A [^01].\n---EVIDENCE---\n@cite[^01]\nq\n---END-EVIDENCE---',
      'A [^01].',
      [{ key: '1', quote: 'q' }],
      false,
    ],
    [
      'lower-case and spaced markers',
      'A.\n--- evidence ---\n@CITE[ 2 ]\nq\n--- end evidence ---',
      'A.',
      [{ key: '2', quote: 'q' }],
      false,
    ],
    [
      'CRLF line ends',
      'A.\r\n---EVIDENCE---\r\n@cite[1]\r\n"q"\r\n---END-EVIDENCE---\r\n',
      'A.',
      [{ key: '1', quote: 'q' }],
      false,
    ],
  ])('%s', (_name, reply, answer, citations, truncated) => {
    const r = parseEvidenceReply(reply);
    expect(r.answer).toBe(answer);
    expect(r.citations).toEqual(citations);
    expect(r.truncated).toBe(truncated);
  });

  it('reports duplicates, empty citations and dangling markers', () => {
    const r = parseEvidenceReply(
      'A [^1] [^4].\n---EVIDENCE---\n@cite[1]\nx\n@cite[1]\ny\n@cite[2]\n---END-EVIDENCE---',
    );
    expect(r.duplicateKeys).toEqual(['1']);
    expect(r.emptyCitations).toEqual(['2']);
    expect(r.danglingMarkers).toEqual(['4']);
  });

  it('parses every prefix of a reply (streaming) without throwing, and converges', () => {
    for (let i = 0; i <= full.length; i++) {
      const r = parseEvidenceReply(full.slice(0, i));
      expect(r.citations.length).toBeLessThanOrEqual(3);
    }
    expect(parseEvidenceReply(full).citations).toHaveLength(3);
  });

  it('never throws on random strings (fuzz, seeded)', () => {
    let seed = 12345;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const atoms = [
      '---EVIDENCE---',
      '---END-EVIDENCE---',
      '@cite[',
      ']',
      '[^',
      '\n',
      '"',
      '“',
      ' ',
      'x',
      '1',
      '^',
      ',',
      '\r',
      '\u0000',
      '```',
      '@cite[9]\n',
      'é',
    ];
    for (let n = 0; n < 3000; n++) {
      let s = '';
      const len = Math.floor(rand() * 40);
      for (let i = 0; i < len; i++) s += atoms[Math.floor(rand() * atoms.length)];
      const r = parseEvidenceReply(s);
      for (const c of r.citations) expect(c.quote.trim()).not.toBe('');
      expect(new Set(r.citations.map((c) => c.key)).size).toBe(r.citations.length);
    }
    expect(() => parseEvidenceReply(undefined as unknown as string)).not.toThrow();
  });
});

describe('markers and quote marks', () => {
  it.each([
    ['a [^1] b [^2, ^3] c [^2,^4] [^ 5]', ['1', '2', '3', '4', '5']],
    ['no markers [1] ^2', []],
    ['[^10][^1]', ['10', '1']],
  ])('markerKeys(%j)', (text, keys) => {
    expect(markerKeys(text)).toEqual(keys);
  });

  it.each([
    ['The result holds [^1].', 'The result holds.'],
    ['A [^1] and B [^2, ^3] hold', 'A and B hold'],
  ])('stripMarkers(%j)', (text, out) => {
    expect(stripMarkers(text)).toBe(out);
  });

  it.each([
    ['"q"', 'q'],
    ['“q”', 'q'],
    ["'q'", 'q'],
    ['""', ''],
    ['q "inner" q', 'q "inner" q'],
    ['  « q »  ', 'q'],
  ])('stripQuoteMarks(%j)', (text, out) => {
    expect(stripQuoteMarks(text)).toBe(out);
  });
});
