#!/usr/bin/env node
// Fails when a stage imports a later stage, when production code imports the test doubles, or when
// one stage reaches into another's internals instead of its index.ts (ARCHITECTURE.md "Layout").
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const defaultRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'src');

/** Pipeline order: a stage may import only stages at or before its own rank. */
export const STAGES = [
  'core',
  'io',
  'python-compat',
  'formats',
  'text',
  'stats',
  'llm',
  'queue',
  'ingest',
  'store',
  'retrieve',
  'generate',
  'answer',
  'grade',
  'report',
  'server',
  'cli',
];
const rank = new Map(STAGES.map((s, i) => [s, i]));

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else if (name.endsWith('.ts')) yield path;
  }
}

const stageOf = (root, file) => {
  const rel = relative(root, file).split(sep);
  return rel.length > 1 ? rel[0] : '(root)';
};

const IMPORT = /(?:^|\s)(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

export function violations(root = defaultRoot) {
  const found = [];
  for (const file of walk(root)) {
    const isTest = /\.test\.ts$/.test(file) || file.includes(`${sep}__fixtures__${sep}`);
    const from = stageOf(root, file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2];
      if (!spec.startsWith('.')) continue;
      const target = resolve(dirname(file), spec);
      const to = stageOf(root, target);
      if (to === from || to === '(root)') continue;
      const where = relative(join(root, '..'), file);
      if (to === 'testing') {
        if (!isTest && from !== 'testing')
          found.push(`${where}: production code imports the test doubles (${spec})`);
        continue;
      }
      if (from !== '(root)' && from !== 'testing' && !isTest && rank.get(to) > rank.get(from)) {
        found.push(`${where}: stage "${from}" imports later stage "${to}" (${spec})`);
      }
      if (!rank.has(to)) found.push(`${where}: imports unknown stage "${to}" (${spec}); add it to STAGES`);
      const inner = relative(join(root, to), target);
      if (!isTest && inner !== 'index.js' && inner !== 'index.ts') {
        found.push(`${where}: reaches into ${to}/${inner}; import from "${to}/index.js" instead`);
      }
    }
  }
  return found;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const found = violations();
  if (found.length > 0) {
    console.error(`check:arch: ${found.length} layering violation(s):\n  ${found.join('\n  ')}`);
    process.exit(1);
  }
  console.log('check:arch: no layering violations');
}
