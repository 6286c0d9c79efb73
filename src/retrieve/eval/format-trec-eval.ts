import { formatFixed4, formatLong } from './c-format.js';
import type { TrecEvalResult, TrecValue } from './trec-eval-result.js';

export { formatFixed4 } from './c-format.js';

/**
 * One output line as meas_print_single.c / meas_print_final.c print it: name left-aligned in 22
 * columns, tab, topic, tab, value (`%6.4f`, or `%ld` for counts). With -Z every numeric value is
 * printed `%6.4f` behind a `Z`; runid and relstring print their text as is.
 */
function line(v: TrecValue, qid: string, zscores: boolean): string {
  if (v.text !== undefined) return `${v.name.padEnd(22)}\t${qid}\t${v.text}\n`;
  const z = zscores ? 'Z' : '';
  const value = v.integer && !zscores ? formatLong(v.value) : formatFixed4(v.value);
  return `${z}${v.name.padEnd(22)}\t${qid}\t${value}\n`;
}

/** Output byte-identical to trec_eval 10.0 (`-q` adds the per-topic lines, `-n` drops the summary). */
export function formatTrecEval(
  result: TrecEvalResult,
  options: { perQuery?: boolean; summary?: boolean } = {},
): string {
  const out: string[] = [];
  const z = result.zscores ?? false;
  if (options.perQuery) for (const q of result.queries) for (const v of q.values) out.push(line(v, q.qid, z));
  if (options.summary ?? true) for (const v of result.summary) out.push(line(v, 'all', z));
  return out.join('');
}
