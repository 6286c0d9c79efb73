import type { TrecEvalResult, TrecValue } from './trec-eval.js';

/**
 * C's `printf("%.4f")`: round to nearest with exact ties to even. `toFixed` rounds exact ties
 * (e.g. 0.03125) up, so ties are detected on the exact decimal expansion and fixed here.
 */
export function formatFixed4(x: number): string {
  if (Number.isNaN(x)) return x < 0 ? '-nan' : 'nan';
  if (!Number.isFinite(x)) return x < 0 ? '-inf' : 'inf';
  const exact = Math.abs(x).toFixed(30);
  const dot = exact.indexOf('.');
  const tail = exact.slice(dot + 5);
  let out = x.toFixed(4);
  if (/^50*$/.test(tail)) {
    const digit = Number(exact[dot + 4]);
    if (digit % 2 === 0) {
      // toFixed rounded the tie away from zero; C keeps the even digit: truncate instead.
      out = `${x < 0 ? '-' : ''}${exact.slice(0, dot + 5)}`;
    }
  }
  if (Object.is(x, -0) || (x < 0 && /^-0\.0000$/.test(out))) return '-0.0000';
  return out;
}

function line(v: TrecValue, qid: string): string {
  const name = v.name.padEnd(22);
  const value = v.text ?? (v.integer ? String(Math.trunc(v.value)) : formatFixed4(v.value));
  return `${name}\t${qid}\t${value}\n`;
}

/** Output byte-identical to trec_eval 10.0 (`-q` adds the per-topic lines before the summary). */
export function formatTrecEval(result: TrecEvalResult, options: { perQuery?: boolean } = {}): string {
  const out: string[] = [];
  if (options.perQuery) for (const q of result.queries) for (const v of q.values) out.push(line(v, q.qid));
  for (const v of result.summary) out.push(line(v, 'all'));
  return out.join('');
}
