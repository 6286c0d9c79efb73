import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CitegeistError } from '../../core/index.js';
import { type LoadedBank, readNuggetFile } from '../../formats/index.js';

const BANK_FILE = /\.json(\.gz)?$/i;

/** The v3 bank files directly in a folder (or the one file), each with its file name. */
export function readBankFiles(path: string): { file: string; loaded: LoadedBank }[] {
  if (!existsSync(path))
    throw new CitegeistError(
      'FILE_NOT_FOUND',
      `The nugget banks path ${path} does not exist.`,
      'Check --bank.',
    );
  const files = statSync(path).isDirectory()
    ? readdirSync(path)
        .filter(
          (f) =>
            BANK_FILE.test(f) &&
            !f.startsWith('.') &&
            !f.endsWith('.meta.json') &&
            statSync(join(path, f)).isFile(),
        )
        .sort()
        .map((f) => join(path, f))
    : [path];
  const out: { file: string; loaded: LoadedBank }[] = [];
  for (const file of files) {
    for (const loaded of readNuggetFile(file)) {
      if (loaded.format !== 'v3') {
        throw new CitegeistError(
          'UNKNOWN_LAYOUT',
          `${loaded.where} is a ${loaded.format} file; this command reads nugget bank v3 files.`,
          'Convert it first: `citegeist nuggets convert --in <file> --to v3 --out <dir>`.',
        );
      }
      out.push({ file, loaded });
    }
  }
  if (out.length === 0)
    throw new CitegeistError(
      'NO_ROWS',
      `${path} holds no nugget bank files (*.json, *.json.gz).`,
      'Point --bank at a folder of nugget bank v3 files.',
    );
  return out;
}
