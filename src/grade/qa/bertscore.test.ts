/**
 * BERTScore on injected token vectors, against values worked out by hand from bert_score's
 * definitions (greedy_cos_idf, get_idf_dict, score's multi-reference max and baseline rescaling).
 */
import { describe, expect, it } from 'vitest';
import { bertScore, type EncodedText, idfFromReferences, rescaleWithBaseline } from './bertscore.js';
import { parseBertScoreBaseline } from './bertscore-baseline.js';
import { defaultBertScoreLayer } from './bertscore-layers.js';

/** A text from [token, vector] pairs; "[CLS]" and "[SEP]" are the special tokens. */
function text(...tokens: [string, number[]][]): EncodedText {
  return {
    tokens: tokens.map(([t]) => t),
    special: tokens.map(([t]) => t === '[CLS]' || t === '[SEP]'),
    vectors: tokens.map(([, v]) => v),
  };
}

const close = (actual: number | null | undefined, expected: number) =>
  expect(Math.abs((actual ?? Number.NaN) - expected)).toBeLessThan(1e-12);

describe('bertScore without idf', () => {
  // Candidate [CLS] a b [SEP], reference [CLS] c [SEP]; unit vectors after normalisation:
  // a = (1,0), b = (0,1), candidate CLS/SEP = (1,0); reference CLS = SEP = (0,1), c = (4,3)/5.
  const candidate = text(['[CLS]', [1, 0]], ['a', [2, 0]], ['b', [0, 5]], ['[SEP]', [1, 0]]);
  const reference = text(['[CLS]', [0, 1]], ['c', [4, 3]], ['[SEP]', [0, 3]]);

  it('matches greedily over all positions, special tokens weighing 0', () => {
    // a: best of (0, 0.8, 0) = 0.8; b: best of (1 [CLS], 0.6, 1 [SEP]) = 1 — a special token of
    // the reference can be a candidate token's best match, as in the package.
    // P = ½·0.8 + ½·1 = 0.9. R: c's best over (0.8, 0.8, 0.6, 0.8) = 0.8 (weight 1, CLS/SEP 0).
    const [s] = bertScore([candidate], [[reference]]);
    close(s!.precision, 0.9);
    close(s!.recall, 0.8);
    close(s!.f1, (2 * 0.9 * 0.8) / (0.9 + 0.8));
  });

  it('rescales P, R and F with a float32 baseline after the scores', () => {
    const b = { precision: 0.5, recall: 0.6, f1: 0.7 };
    const [s] = bertScore([candidate], [[reference]], { baseline: b });
    const f = Math.fround;
    close(s!.precision, (0.9 - f(0.5)) / (1 - f(0.5)));
    close(s!.recall, (0.8 - f(0.6)) / (1 - f(0.6)));
    close(s!.f1, ((2 * 0.9 * 0.8) / 1.7 - f(0.7)) / (1 - f(0.7)));
  });

  it('an empty text (CLS + SEP only) scores P = R = F = 0, and below 0 once rescaled', () => {
    const empty = text(['[CLS]', [1, 0]], ['[SEP]', [0, 1]]);
    expect(bertScore([empty], [[reference]])[0]).toEqual({ precision: 0, recall: 0, f1: 0 });
    expect(bertScore([candidate], [[empty]])[0]).toEqual({ precision: 0, recall: 0, f1: 0 });
    const [r] = bertScore([empty], [[reference]], { baseline: { precision: 0.8, recall: 0.8, f1: 0.8 } });
    close(r!.f1, -Math.fround(0.8) / (1 - Math.fround(0.8)));
  });

  it('takes the element-wise maximum of P, R and F over several references', () => {
    // Reference A gives P = R = F = h; reference B gives a higher P, R and F each.
    const cand = text(['[CLS]', [0, 0, 1]], ['a', [1, 0, 0]], ['b', [0, 1, 0]], ['[SEP]', [0, 0, 1]]);
    const refA = text(['[CLS]', [0, 0, 1]], ['x', [1, 1, 0]], ['[SEP]', [0, 0, 1]]);
    const refB = text(['[CLS]', [0, 0, 1]], ['a', [1, 0, 0]], ['z', [0, 3, 4]], ['[SEP]', [0, 0, 1]]);
    const h = Math.SQRT1_2;
    // A: P = ½(h + h) = h; R = x's best = h.                         F_A = h
    // B: P = ½(1 + 0.6) = 0.8; R = ½(1 + max(0.6, 0.8 [CLS/SEP])) = 0.9;  F_B = 2·0.72/1.7
    const [s] = bertScore([cand], [[refA, refB]]);
    const fB = (2 * 0.8 * 0.9) / 1.7;
    close(s!.precision, Math.max(h, 0.8));
    close(s!.recall, Math.max(h, 0.9));
    close(s!.f1, Math.max(h, fB));
    expect(bertScore([cand], [[]])).toEqual([null]);
  });
});

describe('bertScore with idf', () => {
  const cls: [string, number[]] = ['[CLS]', [1, 0]];
  const sep: [string, number[]] = ['[SEP]', [-1, 0]];
  const ref1 = text(cls, ['x', [0, 1]], ['y', [1, 1]], sep);
  const ref2 = text(cls, ['x', [0, 1]], ['z', [1, -1]], sep);

  it('idf = ln((M+1)/(df+1)) over the references, ln(M+1) for unseen tokens', () => {
    const idf = idfFromReferences([ref1, ref2]);
    expect(idf.weight('[CLS]')).toBe(0);
    expect(idf.weight('x')).toBe(0);
    close(idf.weight('y'), Math.log(3 / 2));
    close(idf.weight('w'), Math.log(3));
  });

  it('weights P and R by idf normalised per text', () => {
    // Candidate for ref1: [CLS] y w [SEP], w = (2,1). Weights: y ln1.5, w ln3 (normalised); refs M = 2.
    const cand = text(cls, ['y', [1, 1]], ['w', [2, 1]], sep);
    const [s] = bertScore([cand, cand], [[ref1], [ref2]], { idf: true });
    const wy = Math.log(1.5) / (Math.log(1.5) + Math.log(3));
    const wc = Math.log(3) / (Math.log(1.5) + Math.log(3));
    const cos = (a: number[], b: number[]) =>
      (a[0]! * b[0]! + a[1]! * b[1]!) / Math.hypot(...a) / Math.hypot(...b);
    // P vs ref1: y matches y (1); w's best over CLS (1,0), x (0,1), y (1,1), SEP (−1,0).
    const wBest = Math.max(cos([2, 1], [1, 0]), cos([2, 1], [0, 1]), cos([2, 1], [1, 1]));
    const p = wy * 1 + wc * wBest;
    // R vs ref1: only y has weight (x, CLS, SEP have idf 0) and matches y exactly.
    const r = 1;
    close(s!.precision, p);
    close(s!.recall, r);
    close(s!.f1, (2 * p * r) / (p + r));
  });

  it('a text whose tokens all weigh 0 has P (or R) NaN → null and F 0, as the package leaves them', () => {
    const ref = text(cls, ['x', [0, 1]], sep);
    const [s] = bertScore([text(cls, ['x', [0, 1]], sep)], [[ref]], { idf: true });
    expect(s).toEqual({ precision: null, recall: null, f1: 0 });
  });
});

describe('baseline file and layers', () => {
  // The first rows of bert_score's rescale_baseline/en/roberta-large.tsv.
  const file =
    'LAYER,P,R,F\n0,0.3712891,0.37132213,0.36826715\n1,0.67176163,0.6717439,0.6703483\n2,0.70031923,0.7003052,0.69969934\n';

  it('reads the row at the layer index', () => {
    expect(parseBertScoreBaseline(file, 2, 'b.tsv')).toEqual({
      precision: 0.70031923,
      recall: 0.7003052,
      f1: 0.69969934,
    });
  });

  it.each([
    ['no header', 'x,y\n0,1,2,3', 0, /not a bert_score baseline header/],
    ['too few rows', file, 5, /has 3 layer rows; layer 5 needs row 6/],
    ['not numbers', 'LAYER,P,R,F\n0,a,b,c', 0, /does not hold three numbers/],
  ])('%s is refused', (_name, content, layer, message) => {
    expect(() => parseBertScoreBaseline(content, layer, 'b.tsv')).toThrow(message);
  });

  it("uses bert_score's model2layers defaults", () => {
    expect(defaultBertScoreLayer('roberta-large')).toBe(17);
    expect(defaultBertScoreLayer('microsoft/deberta-xlarge-mnli')).toBe(40);
    expect(defaultBertScoreLayer('bert-base-uncased')).toBe(9);
    expect(defaultBertScoreLayer('my-model')).toBeNull();
  });
});

describe("rescaling against bert_score's own test values", () => {
  // tests/test_score_function.py: roberta-large, layer 17, scores without and with rescaling
  // (test_score → test_score_rescale; test_idf_score → test_idf_score_rescale), and the layer-17
  // row of rescale_baseline/en/roberta-large.tsv.
  const baseline = { precision: 0.83150584, recall: 0.8314941, f1: 0.83122575 };
  it.each([
    [
      'no idf',
      [0.9843302369117737, 0.9832239747047424, 0.9120386242866516],
      [0.9823839068412781, 0.9732863903045654, 0.920428991317749],
      [0.9833561182022095, 0.9782299995422363, 0.916214644908905],
      [0.90700078010559, 0.900435566902161, 0.477955609560013],
      [0.895456790924072, 0.841467440128326, 0.527785062789917],
      [0.901383399963379, 0.871010780334473, 0.503565192222595],
    ],
    [
      'idf',
      [0.9837872385978699, 0.9754738807678223, 0.8947395086288452],
      [0.9827190637588501, 0.9697767496109009, 0.9172918796539307],
      [0.9832529425621033, 0.972616970539093, 0.9058753848075867],
      [0.90377813577652, 0.85443902015686, 0.375287383794785],
      [0.897446095943451, 0.820639789104462, 0.509167850017548],
      [0.900772094726562, 0.837753534317017, 0.442304641008377],
    ],
  ])(
    '%s: (x − b)/(1 − b) within 1e-6 of the package (it computes in float32)',
    (_name, p, r, f, ep, er, ef) => {
      for (let i = 0; i < 3; i++) {
        const [rp, rr, rf] = rescaleWithBaseline([p[i]!, r[i]!, f[i]!], baseline);
        expect(Math.abs(rp - ep[i]!)).toBeLessThan(1e-6);
        expect(Math.abs(rr - er[i]!)).toBeLessThan(1e-6);
        expect(Math.abs(rf - ef[i]!)).toBeLessThan(1e-6);
      }
    },
  );
});
