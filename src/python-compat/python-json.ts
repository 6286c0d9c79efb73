/**
 * JSON as Python's `json` module writes it, so that files made by the TREC/DoGMaTiQ tooling (nugget
 * banks, Auto-ARGUE judgments and TSVs) read and write back byte for byte.
 *
 * Two things JSON.parse loses are kept on the parsed objects as a hidden (non-enumerable, symbol
 * keyed) note: which numbers were written as floats (`8.0` must stay `8.0`, not become `8`), and the
 * original key order of objects whose keys look like array indices (JavaScript would move `"2020"`
 * before `"about 20,000"`; Python keeps insertion order). Objects built in code carry no note and
 * are written in their own order with JavaScript number formatting rules mapped to Python's.
 */
import { CitegeistError } from '../core/index.js';

const NOTE = Symbol('python-json');

interface Note {
  /** Keys (or array indices as strings) whose number was written with a fraction or exponent. */
  floats?: Set<string>;
  /** The original key order, when JavaScript's own order differs from it. */
  order?: string[];
}

function noteOf(target: object): Note | undefined {
  return (target as { [NOTE]?: Note })[NOTE];
}

function ensureNote(target: object): Note {
  let note = noteOf(target);
  if (!note) {
    note = {};
    Object.defineProperty(target, NOTE, { value: note, enumerable: false });
  }
  return note;
}

/** The entries of an object in its written (insertion) order, also for index-like keys. */
export function orderedEntries(target: Record<string, unknown>): [string, unknown][] {
  const order = noteOf(target)?.order;
  return order ? order.filter((k) => k in target).map((k) => [k, target[k]]) : Object.entries(target);
}

/** The keys of an object in written order (see `orderedEntries`). */
export function orderedKeys(target: Record<string, unknown>): string[] {
  return orderedEntries(target).map(([k]) => k);
}

/** Builds an object whose entries keep the given order when written (index-like keys included). */
export function orderedObject<T>(entries: Iterable<[string, T]>): Record<string, T> {
  const out: Record<string, T> = {};
  const order: string[] = [];
  for (const [k, v] of entries) {
    if (!(k in out)) order.push(k);
    out[k] = v;
  }
  if (Object.keys(out).some((k, i) => k !== order[i])) ensureNote(out).order = order;
  return out;
}

/** Marks `target[key]` as a float so it is written `8.0` rather than `8`. */
export function markFloat(target: object, key: string | number): void {
  const note = ensureNote(target);
  note.floats ??= new Set();
  note.floats.add(String(key));
}

/** True when `target[key]` was read (or marked) as a Python float (`8.0`), not an int. */
export function isFloatAt(target: object, key: string | number): boolean {
  return noteOf(target)?.floats?.has(String(key)) ?? false;
}

/** Parses JSON (Python also accepts NaN, Infinity and -Infinity), keeping float and key-order notes. */
export function parsePythonJson(text: string, where = 'JSON text'): unknown {
  const parser = new Parser(text, where);
  parser.space();
  const value = parser.value();
  parser.space();
  if (parser.pos < text.length) parser.fail('unexpected text after the JSON value');
  return value;
}

class Parser {
  pos = 0;
  constructor(
    private readonly s: string,
    private readonly where: string,
  ) {}

  fail(what: string): never {
    const before = this.s.slice(0, this.pos);
    const line = before.split('\n').length;
    const column = this.pos - before.lastIndexOf('\n');
    throw new CitegeistError(
      'INVALID_JSON',
      `${this.where} is not valid JSON at line ${line}, column ${column}: ${what}.`,
      'Check that the file is complete, valid JSON.',
    );
  }

  space(): void {
    while (this.pos < this.s.length && ' \t\n\r'.includes(this.s[this.pos]!)) this.pos++;
  }

  value(): unknown {
    const c = this.s[this.pos];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    for (const [word, v] of WORDS) {
      if (this.s.startsWith(word, this.pos)) {
        this.pos += word.length;
        return v;
      }
    }
    return this.number().value;
  }

  number(): { value: number; float: boolean } {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.s.slice(this.pos, this.pos + 400));
    if (!m) this.fail(`unexpected ${JSON.stringify(this.s[this.pos] ?? 'end of text')}`);
    this.pos += m[0].length;
    return { value: Number(m[0]), float: m[2] !== undefined || m[3] !== undefined };
  }

  private member(target: object, key: string | number): unknown {
    const c = this.s[this.pos];
    const digit = c !== undefined && c >= '0' && c <= '9';
    if (digit || (c === '-' && this.s[this.pos + 1] !== 'I')) {
      const { value, float } = this.number();
      if (float) markFloat(target, key);
      return value;
    }
    return this.value();
  }

  private object(): Record<string, unknown> {
    this.pos++;
    const out: Record<string, unknown> = {};
    const order: string[] = [];
    this.space();
    if (this.s[this.pos] === '}') {
      this.pos++;
      return out;
    }
    for (;;) {
      this.space();
      if (this.s[this.pos] !== '"') this.fail('expected a key in double quotes');
      const key = this.string();
      this.space();
      if (this.s[this.pos] !== ':') this.fail('expected ":"');
      this.pos++;
      this.space();
      if (!(key in out)) order.push(key);
      // Python keeps the last value of a repeated key at its first position, as JavaScript does.
      out[key] = this.member(out, key);
      this.space();
      const c = this.s[this.pos++];
      if (c === '}') break;
      if (c !== ',') this.fail('expected "," or "}"');
    }
    if (Object.keys(out).some((k, i) => k !== order[i])) ensureNote(out).order = order;
    return out;
  }

  private array(): unknown[] {
    this.pos++;
    const out: unknown[] = [];
    this.space();
    if (this.s[this.pos] === ']') {
      this.pos++;
      return out;
    }
    for (;;) {
      this.space();
      out.push(this.member(out, out.length));
      this.space();
      const c = this.s[this.pos++];
      if (c === ']') break;
      if (c !== ',') this.fail('expected "," or "]"');
    }
    return out;
  }

  private string(): string {
    const end = this.stringEnd();
    try {
      return JSON.parse(this.s.slice(this.pos, end)) as string;
    } catch {
      return this.fail('bad string escape');
    } finally {
      this.pos = end;
    }
  }

  private stringEnd(): number {
    let i = this.pos + 1;
    while (i < this.s.length) {
      const c = this.s.charCodeAt(i);
      if (c === 0x22) return i + 1;
      i += c === 0x5c ? 2 : 1;
    }
    return this.fail('unterminated string');
  }
}

const WORDS: [string, unknown][] = [
  ['true', true],
  ['false', false],
  ['null', null],
  ['NaN', Number.NaN],
  ['Infinity', Number.POSITIVE_INFINITY],
  ['-Infinity', Number.NEGATIVE_INFINITY],
];

/**
 * Python's `repr(float)`: the shortest round-tripping digits (as JavaScript's), written in fixed
 * notation when the decimal exponent is in [-4, 16) and with at least one fractional digit
 * (`263.0`); otherwise in exponent notation with a signed two-digit exponent (`1e-05`, `1.5e+16`).
 */
export function formatPythonFloat(x: number): string {
  // Fast paths: where both languages write fixed notation they write the same shortest digits.
  const abs = Math.abs(x);
  if (abs >= 1e-4 && abs < 1e16) return Number.isInteger(x) ? `${x}.0` : String(x);
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const [mantissa = '', exp = '0'] = Math.abs(x).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const point = Number(exp) + 1; // digits before the decimal point
  const sign = x < 0 ? '-' : '';
  if (point > -4 && point <= 16) {
    if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
    if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}.0`;
    return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
  }
  const e = point - 1;
  const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${sign}${m}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
}

/** A number as Python's json writes it: floats by `formatPythonFloat` (NaN → `NaN`), ints plainly. */
function formatNumber(x: number, float: boolean): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
  if (!float && Number.isInteger(x) && Math.abs(x) < 1e21) return x.toFixed(0);
  return formatPythonFloat(x);
}

/** A string as `json.dumps` writes it (`ensure_ascii=True` by default). */
export function pythonJsonString(s: string, ensureAscii = true): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += '\\\\';
    else if ((c >= 0x20 && c < 0x7f) || (!ensureAscii && c >= 0x7f)) out += s[i];
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (c === 0x08) out += '\\b';
    else if (c === 0x0c) out += '\\f';
    else out += `\\u${c.toString(16).padStart(4, '0')}`;
  }
  return `${out}"`;
}

export interface PythonJsonOptions {
  /** `json.dumps(indent=n)`; undefined writes one line with `", "` and `": "` separators. */
  indent?: number;
  /** `ensure_ascii` (default true); false writes non-ASCII characters as they are. */
  ensureAscii?: boolean;
}

/**
 * `json.dumps(value)` / `json.dump(value, f, indent=n)` as CPython writes it: ASCII-only strings,
 * Python float formatting, original key order and float-ness when the value came from
 * `parsePythonJson`. `undefined` object members are skipped (they have no JSON form).
 */
export function stringifyPythonJson(value: unknown, options: PythonJsonOptions = {}): string {
  const pieces: string[] = [];
  new Writer(options.indent, options.ensureAscii ?? true, pieces).write(value, false, '');
  return pieces.join('');
}

class Writer {
  constructor(
    private readonly indent: number | undefined,
    private readonly ascii: boolean,
    private readonly out: string[],
  ) {}

  write(value: unknown, float: boolean, pad: string): void {
    const { indent, out } = this;
    if (value === null || value === undefined) out.push('null');
    else if (typeof value === 'boolean') out.push(value ? 'true' : 'false');
    else if (typeof value === 'number') out.push(formatNumber(value, float));
    else if (typeof value === 'string') out.push(pythonJsonString(value, this.ascii));
    else if (Array.isArray(value)) {
      if (value.length === 0) return void out.push('[]');
      const inner = indent === undefined ? '' : `${pad}${' '.repeat(indent)}`;
      out.push(indent === undefined ? '[' : `[\n${inner}`);
      value.forEach((item, i) => {
        if (i > 0) out.push(indent === undefined ? ', ' : `,\n${inner}`);
        this.write(item, isFloatAt(value, i), inner);
      });
      out.push(indent === undefined ? ']' : `\n${pad}]`);
    } else if (typeof value === 'object') {
      const entries = orderedEntries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
      if (entries.length === 0) return void out.push('{}');
      const inner = indent === undefined ? '' : `${pad}${' '.repeat(indent)}`;
      out.push(indent === undefined ? '{' : `{\n${inner}`);
      entries.forEach(([k, v], i) => {
        if (i > 0) out.push(indent === undefined ? ', ' : `,\n${inner}`);
        out.push(pythonJsonString(k, this.ascii), ': ');
        this.write(v, isFloatAt(value, k), inner);
      });
      out.push(indent === undefined ? '}' : `\n${pad}}`);
    } else {
      throw new CitegeistError(
        'INVALID_ARGUMENT',
        `stringifyPythonJson: cannot write a ${typeof value}.`,
        'Pass JSON values only (objects, arrays, strings, numbers, booleans, null).',
      );
    }
  }
}
