/**
 * Reading and writing nugget files: one v3 bank per file (`.json` or `.json.gz`, written exactly as
 * the reference's `write_nugget_bank_json`: `json.dump(…, indent=2)`, no final newline), or JSONL
 * files with one request per line (NeuCLIR 2024 evaluation, nuggetizer, legacy v1). A folder is
 * read file by file; every request must appear once.
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { CitegeistError, location, quoteValue } from '../core/index.js';
import { decodeUtf8, MAX_INPUT_BYTES, readInputBytes, writeFileAtomic } from '../io/index.js';
import { parsePythonJson, stringifyPythonJson } from '../python-compat/index.js';
import { asNuggetBank, bankQueryId, type NuggetBank } from './nugget-bank.js';
import { asNuggetizerRecord, fromLegacyV1, fromNeuclirEvaluation, fromNuggetizer } from './nugget-formats.js';

export type NuggetFileFormat = 'v3' | 'v1' | 'neuclir' | 'nuggetizer';

export interface LoadedBank {
  bank: NuggetBank;
  format: NuggetFileFormat;
  /** The file (and line, for JSONL) it came from. */
  where: string;
}

/**
 * Reads a file as UTF-8 text with the size guard, gunzipping it when it is gzip (by content, not by
 * name); the unpacked text is held to the same limit, so a small file that unpacks to gigabytes
 * is refused rather than read until memory runs out.
 */
export function readMaybeGzip(path: string, what: string): string {
  let buffer = readInputBytes(path, { what });
  if (buffer[0] === 0x1f && buffer[1] === 0x8b) {
    try {
      buffer = gunzipSync(buffer, { maxOutputLength: MAX_INPUT_BYTES });
    } catch (error) {
      const tooLarge = (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE';
      throw new CitegeistError(
        tooLarge ? 'FILE_TOO_LARGE' : 'FILE_UNREADABLE',
        tooLarge
          ? `The ${what} ${path} unpacks to more than ${MAX_INPUT_BYTES / (1 << 20)} MiB, the most citegeist reads from one input.`
          : `The ${what} ${path} is a damaged gzip file (${(error as Error).message}).`,
        tooLarge ? 'Split it into smaller files.' : 'Recreate or re-download it.',
      );
    }
  }
  return decodeUtf8(buffer, `The ${what} ${path}`);
}

function detect(value: unknown): NuggetFileFormat | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  if ('nugget_bank' in v || 'title_query' in v) return 'v3';
  if ('items' in v) return 'v1';
  if ('questions' in v) return 'neuclir';
  if ('nuggets' in v && 'qid' in v) return 'nuggetizer';
  return null;
}

function convert(value: unknown, format: NuggetFileFormat, where: string): NuggetBank {
  if (format === 'v3') return asNuggetBank(value, where);
  if (format === 'v1') return fromLegacyV1(value, where);
  if (format === 'neuclir') return fromNeuclirEvaluation(value, where);
  return fromNuggetizer(asNuggetizerRecord(value, where));
}

function unknownFormat(where: string): CitegeistError {
  return new CitegeistError(
    'INVALID_INPUT',
    `${where} is not a nugget file this tool reads.`,
    'Give nugget bank v3 JSON (with "nugget_bank"), legacy v1 ("items"), NeuCLIR 2024 evaluation JSONL ("questions") or nuggetizer JSONL ("qid", "nuggets").',
  );
}

/** The banks in one file: one for a JSON file, one per line for JSONL. */
export function readNuggetFile(path: string): LoadedBank[] {
  const text = readMaybeGzip(path, 'nugget file');
  const trimmed = text.trimStart();
  const isJsonl = /\.jsonl(\.gz)?$/i.test(path) || (trimmed.startsWith('{') && isMultiline(trimmed));
  if (!isJsonl) {
    const value = parsePythonJson(text, path);
    const format = detect(value);
    if (!format) throw unknownFormat(path);
    return [{ bank: convert(value, format, path), format, where: path }];
  }
  const out: LoadedBank[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    const where = location(path, i + 1);
    const value = parsePythonJson(line, where);
    const format = detect(value);
    if (!format) throw unknownFormat(where);
    out.push({ bank: convert(value, format, where), format, where });
  });
  return out;
}

/** True when the text holds several complete JSON objects, one per line (JSONL without the name). */
function isMultiline(text: string): boolean {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.length < 2) return false;
  try {
    JSON.parse(lines[0]!);
    return true;
  } catch {
    return false;
  }
}

const NUGGET_FILE = /\.(json|jsonl)(\.gz)?$/i;

/**
 * The banks in a file or folder (`*.json`, `*.json.gz`, `*.jsonl`; `*.meta.json` files, which say
 * how a folder was made, are not banks), keyed by query id. A request
 * found twice is an error naming both files (merging two banks silently would change the scores).
 */
export function readNuggetBanks(path: string): Map<string, LoadedBank> {
  let files: string[];
  try {
    files = statSync(path).isDirectory()
      ? readdirSync(path)
          .filter((f) => NUGGET_FILE.test(f) && !f.startsWith('.') && !f.endsWith('.meta.json'))
          .sort()
          .map((f) => join(path, f))
      : [path];
  } catch {
    throw new CitegeistError('FILE_NOT_FOUND', `The nuggets path ${path} does not exist.`, 'Check the path.');
  }
  if (files.length === 0) {
    throw new CitegeistError(
      'NO_ROWS',
      `The folder ${path} holds no nugget files (*.json, *.json.gz, *.jsonl).`,
      'Point --nuggets at the folder of nugget bank files or at one file.',
    );
  }
  const banks = new Map<string, LoadedBank>();
  for (const file of files) {
    for (const loaded of readNuggetFile(file)) {
      const id = bankQueryId(loaded.bank);
      const seen = banks.get(id);
      if (seen) {
        throw new CitegeistError(
          'INVALID_INPUT',
          `Request ${quoteValue(id)} has nuggets in both ${seen.where} and ${loaded.where}.`,
          'Keep one bank per request: give one of the files, or move the other out of the folder.',
        );
      }
      banks.set(id, loaded);
    }
  }
  return banks;
}

/** A bank as the reference writes it: `json.dump(bank, f, indent=2)` (ASCII escapes, no final newline). */
export function nuggetBankText(bank: NuggetBank): string {
  return stringifyPythonJson(bank, { indent: 2 });
}

/**
 * Writes a bank to `.json`, or gzip-compressed when the name ends in `.gz`; atomically (a reader
 * or a crash sees the old bank or the new one), creating the folder.
 */
export function writeNuggetBankFile(path: string, bank: NuggetBank): void {
  const text = nuggetBankText(bank);
  writeFileAtomic(path, path.endsWith('.gz') ? gzipSync(Buffer.from(text, 'utf8')) : text);
}

/** The file name the reference tools use for a request's bank: `nuggets_<id>.v3.json`. */
export function nuggetBankFileName(bank: NuggetBank, gzip = false): string {
  return `nuggets_${basename(bankQueryId(bank))}.v3.json${gzip ? '.gz' : ''}`;
}
