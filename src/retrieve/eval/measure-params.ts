import { CitegeistError, quoteValue } from '../../core/index.js';
import { formatFixed } from './c-format.js';
import type { MeasureDef, MeasureParams } from './measures/measure-def.js';
import { MEASURES, NICKNAMES } from './measures/measure-table.js';

/** A requested measure with its parameters and the names its values print under. */
export interface ResolvedMeasure {
  def: MeasureDef;
  params: MeasureParams;
  names: string[];
}

function measureError(arg: string, why: string): CitegeistError {
  return new CitegeistError(
    'UNKNOWN_MEASURE',
    `Measure ${quoteValue(arg)}: ${why}.`,
    `Use a trec_eval 10.0 measure (${MEASURES.map((m) => m.name).join(', ')}) or set (${Object.keys(NICKNAMES).join(', ')}), parameters after a dot as in "P.5,10" or "ndcg.1=3,2=9"; see docs/retrieval.md.`,
  );
}

const NUMBER_PREFIX = /^[ \t\n\v\f\r]*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/;
const SPECIAL_PREFIX = /^[ \t\n\v\f\r]*([+-]?)(infinity|inf|nan)/i;

/** C `atof`: the longest numeric prefix, 0 when there is none. */
export function cAtof(text: string): number {
  const m = NUMBER_PREFIX.exec(text);
  if (m) return Number.parseFloat(m[0]);
  const s = SPECIAL_PREFIX.exec(text);
  if (!s) return 0;
  const v = (s[2] as string).toLowerCase() === 'nan' ? Number.NaN : Number.POSITIVE_INFINITY;
  return s[1] === '-' ? -v : v;
}

/** C `atol`: optional sign and leading digits, 0 when there are none. */
export function cAtol(text: string): number {
  const m = /^[ \t\n\v\f\r]*([+-]?\d+)/.exec(text);
  return m ? Number.parseInt(m[1] as string, 10) : 0;
}

/**
 * Reads a measure's parameter text the way meas_init.c does for its kind: cut-offs with atol or
 * atof, sorted, no duplicates (integer cut-offs must be positive); number lists with atof;
 * `key=value` pairs checked by get_param_pairs' rules.
 */
function parseParams(def: MeasureDef, text: string): MeasureParams {
  const arg = `${def.name}.${text}`;
  const parts = text.split(',');
  if (def.params === 'pairs') {
    let last = ',';
    for (const ch of text) {
      if (ch === ',') {
        if (last === ',') break;
        last = ',';
      } else if (ch === '=') {
        if (last === '=') {
          last = ',';
          break;
        }
        last = '=';
      }
    }
    if (last !== '=') throw measureError(arg, 'malformed pair parameters (want key=value,…)');
    const pairs = parts.map((p) => {
      const eq = p.indexOf('=');
      return { key: p.slice(0, eq), value: cAtof(p.slice(eq + 1)) };
    });
    return { values: [], pairs, text };
  }
  if (def.params === 'double-list') return { values: parts.map(cAtof), pairs: [], text };
  const values = parts.map(def.params === 'cut-long' ? cAtol : cAtof).sort((a, b) => a - b);
  if (def.params === 'cut-long' && (values[0] as number) <= 0)
    throw measureError(arg, 'cut-offs must be positive');
  for (let i = 1; i < values.length; i++) {
    if (values[i] === values[i - 1]) throw measureError(arg, 'duplicate cut-offs');
  }
  return { values, pairs: [], text };
}

function valueNames(def: MeasureDef, params: MeasureParams): string[] {
  if (def.params === 'cut-long') return params.values.map((k) => `${def.name}_${k}`);
  // append_double in meas_init.c prints "%s_%3.2f".
  if (def.params === 'cut-double') return params.values.map((k) => `${def.name}_${formatFixed(k, 2)}`);
  if (def.params !== 'none' && params.text !== null) return [`${def.name}_${params.text}`];
  return [def.name];
}

/**
 * Resolves `-m` arguments like trec_eval.c mark_measure + init_meas: sets expand to their measures,
 * measures come out in trec_eval's print order, and a measure takes the parameters of the first
 * argument that names it. dcg, ideal_dcg and ndcg share one parameter block in m_ndcg.c, so
 * parameters given to one apply to all three (and name those initialised after it).
 */
export function resolveMeasures(args: readonly string[]): ResolvedMeasure[] {
  const marked = new Set<string>();
  const paramArgs: { name: string; text: string }[] = [];
  for (const arg of args) {
    const dot = arg.indexOf('.');
    const name = dot >= 0 ? arg.slice(0, dot) : arg;
    if (dot >= 0) {
      const text = arg.slice(dot + 1);
      if (text === '') throw measureError(arg, 'empty parameter list after "."');
      paramArgs.push({ name, text });
    }
    const set = NICKNAMES[name];
    if (set) for (const m of set) marked.add(m);
    else if (MEASURES.some((m) => m.name === name)) marked.add(name);
    else throw measureError(arg, 'not a trec_eval 10.0 measure or measure set');
  }
  const shared = new Map<string, MeasureParams>();
  return MEASURES.filter((m) => marked.has(m.name))
    .map((def) => {
      const given = paramArgs.find((p) => p.name === def.name);
      const defaults: MeasureParams = { values: def.defaults ?? [], pairs: [], text: null };
      let params = def.params === 'none' ? defaults : given ? parseParams(def, given.text) : defaults;
      if (def.sharedParams) {
        if (given || !shared.has(def.sharedParams)) shared.set(def.sharedParams, params);
        params = shared.get(def.sharedParams) as MeasureParams;
      }
      if (def.exactParams !== undefined && params.values.length !== def.exactParams) {
        throw measureError(
          `${def.name}.${params.text}`,
          `needs exactly ${def.exactParams} comma-separated numbers`,
        );
      }
      return { def, params, names: valueNames(def, params) };
    })
    .map((m, _i, all) =>
      // Computation happens after every init, so a shared block holds the last parameters given.
      m.def.sharedParams ? { ...m, params: finalShared(all, m.def.sharedParams) } : m,
    );
}

function finalShared(all: ResolvedMeasure[], group: string): MeasureParams {
  const members = all.filter((m) => m.def.sharedParams === group);
  return (members[members.length - 1] as ResolvedMeasure).params;
}
