// Writes docs/errors.md from the error-code table (src/core/error-codes.ts). `npm run docs:errors`;
// a unit test fails when the file is out of date.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorCodesMarkdown } from '../src/core/error-codes.js';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'errors.md');
writeFileSync(out, errorCodesMarkdown());
process.stdout.write(`wrote ${out}\n`);
