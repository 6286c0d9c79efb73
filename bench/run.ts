/**
 * `npm run bench`: runs every `bench/*.bench.ts` (or only those whose name contains an argument) in
 * sequence. Each benchmark prints its figures as ratios against a baseline measured in the same run,
 * because this machine is shared and absolute timings are noisy.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dir = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();

for (const file of files) {
  console.log(`\n== ${file.replace(/\.bench\.ts$/, '')} ==`);
  const mod = (await import(pathToFileURL(join(dir, file)).href)) as { default: () => Promise<void> };
  await mod.default();
}
if (files.length === 0) console.log('no benchmarks matched');
