/**
 * `npm run parity`: compares citegeist with the published tools on the references' own files and
 * writes the result table to docs/fidelity.md. Each comparison is one module in `scripts/parity/`
 * exporting `run(): Promise<ParityCheck[]>`; this runner calls them in name order, prints each row
 * and rewrites the generated part of the document. A user can rerun it to check a claim.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ParityCheck } from './parity/parity-check.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = join(root, 'scripts', 'parity');
const filters = process.argv.slice(2);
const modules = readdirSync(dir)
  .filter((f) => f.endsWith('.parity.ts'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();

const checks: ParityCheck[] = [];
for (const file of modules) {
  const mod = (await import(pathToFileURL(join(dir, file)).href)) as { run: () => Promise<ParityCheck[]> };
  for (const check of await mod.run()) {
    checks.push(check);
    console.log(`${check.pass ? 'PASS' : 'FAIL'}  ${check.reference}: ${check.compared} — ${check.result}`);
  }
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const table = [
  '| reference | what was compared | files | result | |',
  '|---|---|---|---|---|',
  ...checks.map(
    (c) =>
      `| ${cell(c.reference)} | ${cell(c.compared)} | ${cell(c.files)} | ${cell(c.result)} | ${c.pass ? 'pass' : '**fail**'} |`,
  ),
].join('\n');

if (filters.length === 0) {
  const docPath = join(root, 'docs', 'fidelity.md');
  const begin = '<!-- parity:begin -->';
  const end = '<!-- parity:end -->';
  const doc = readFileSync(docPath, 'utf8');
  const i = doc.indexOf(begin);
  const j = doc.indexOf(end);
  if (i < 0 || j < i) throw new Error(`${docPath} has no ${begin} … ${end} block`);
  writeFileSync(docPath, `${doc.slice(0, i + begin.length)}\n${table}\n${doc.slice(j)}`);
  console.log(`\nwrote ${checks.length} rows to docs/fidelity.md`);
}
const failed = checks.filter((c) => !c.pass).length;
console.log(`parity: ${checks.length - failed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
