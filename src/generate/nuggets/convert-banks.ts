import { join } from 'node:path';
import {
  type LoadedBank,
  type NuggetBank,
  nuggetBankFileName,
  toLegacyV1,
  toNeuclirEvaluation,
  toNuggetizer,
  writeNuggetBankFile,
} from '../../formats/index.js';
import { writeFileAtomic } from '../../io/index.js';
import { stringifyPythonJson } from '../../python-compat/index.js';
import { ResultFolder } from './result-folder.js';

/** The formats `nuggets convert` writes. */
export const NUGGET_TARGETS = ['v3', 'nuggetizer', 'neuclir', 'v1'] as const;
export type NuggetTarget = (typeof NUGGET_TARGETS)[number];

/**
 * Writes the banks in another format with how they were made (the source's formats and hash, the
 * target format): v3 as a result folder of one bank per request (`convert.meta.json`),
 * the others as one JSONL file of a request per line (`<out>.meta.json`), as Python writes JSON.
 */
export function convertNuggetBanks(
  loaded: readonly LoadedBank[],
  to: NuggetTarget,
  out: string,
  made: { version: string; createdAt: string; inputsSha256: Record<string, string> },
): void {
  const banks = loaded.map((l) => l.bank);
  const how = {
    tool: 'citegeist',
    version: made.version,
    created_at: made.createdAt,
    command: 'nuggets convert',
    to,
    from: [...new Set(loaded.map((l) => l.format))].sort(),
    inputs_sha256: made.inputsSha256,
    requests: banks.length,
  };
  if (to === 'v3') {
    const files = banks.map((b) => nuggetBankFileName(b));
    const folder = ResultFolder.open(out, 'convert', 'citegeist nuggets convert');
    try {
      folder.begin(files);
      banks.forEach((bank, i) => void writeNuggetBankFile(join(out, files[i]!), bank));
      folder.finish(how, files);
    } finally {
      folder.close();
    }
    return;
  }
  const convert: (b: NuggetBank) => unknown =
    to === 'nuggetizer' ? toNuggetizer : to === 'neuclir' ? toNeuclirEvaluation : toLegacyV1;
  const lines = banks.map((b) => stringifyPythonJson(convert(b), { ensureAscii: false }));
  writeFileAtomic(out, `${lines.join('\n')}\n`);
  writeFileAtomic(`${out}.meta.json`, `${JSON.stringify(how, null, 2)}\n`);
}
