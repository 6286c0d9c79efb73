/**
 * `npm run cli:manifest`: writes src/cli/command-manifest.generated.ts, what `--help` shows of every
 * command, from the real program. `citegeist --help`, `--version` and `<command> --help` are
 * answered from it without loading any command's code; `program.test.ts` fails when it is stale.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderManifestModule } from '../src/cli/command-manifest.js';
import { memoryIo } from '../src/cli/io.js';
import { createProgram } from '../src/cli/program.js';

const { program } = await createProgram(memoryIo().io);
const file = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'src',
  'cli',
  'command-manifest.generated.ts',
);
writeFileSync(file, renderManifestModule(program));
// Formatted as the linter wants it, so `npm run lint` passes on the generated file.
execFileSync('npx', ['biome', 'format', '--write', file], { stdio: 'ignore' });
console.log(`wrote ${file}`);
