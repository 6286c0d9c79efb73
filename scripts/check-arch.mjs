#!/usr/bin/env node
// Fails when a stage imports a later stage, when production code imports the test doubles, or when
// one stage reaches into another's internals instead of its index.ts (ARCHITECTURE.md "Layout"), and
// when any two files of src/ import each other, directly or around a loop (type imports count too:
// a cycle through a barrel is still a cycle for a reader and for module load order).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
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
  'pack',
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

/** The file a relative specifier names: `x.js` is `x.ts`, a folder is its `index.ts`. */
function resolveFile(from, spec) {
  const base = resolve(dirname(from), spec);
  for (const c of [base.replace(/\.js$/, '.ts'), base, join(base, 'index.ts')]) {
    if (existsSync(c) && statSync(c).isFile()) return c;
  }
  return null;
}

/**
 * Every import cycle between files of src/, one per strongly connected component (Tarjan), each
 * printed as the loop found in it: `a.ts -> b.ts -> a.ts`.
 */
export function cycles(root = defaultRoot) {
  const graph = new Map();
  for (const file of walk(root)) {
    const next = new Set();
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const spec = m[1] ?? m[2];
      if (!spec.startsWith('.')) continue;
      const target = resolveFile(file, spec);
      if (target?.startsWith(root)) next.add(target);
    }
    graph.set(file, [...next].sort());
  }
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const connect = (v) => {
    // iterative Tarjan: the src/ graph is deep enough to overflow recursion on small stacks
    const work = [[v, 0]];
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [u, i] = frame;
      const edges = graph.get(u) ?? [];
      if (i < edges.length) {
        frame[1]++;
        const w = edges[i];
        if (!index.has(w)) {
          index.set(w, counter);
          low.set(w, counter++);
          stack.push(w);
          onStack.add(w);
          work.push([w, 0]);
        } else if (onStack.has(w)) low.set(u, Math.min(low.get(u), index.get(w)));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(u)));
      }
      if (low.get(u) === index.get(u)) {
        const component = [];
        let w;
        do {
          w = stack.pop();
          onStack.delete(w);
          component.push(w);
        } while (w !== u);
        const selfLoop = component.length === 1 && (graph.get(u) ?? []).includes(u);
        if (component.length > 1 || selfLoop) components.push(component);
      }
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) connect(v);
  const name = (f) => relative(join(root, '..'), f);
  return components.map((component) => {
    // one concrete loop through the component, by breadth-first search from its first file
    const inside = new Set(component);
    const start = component.sort()[0];
    const prev = new Map([[start, null]]);
    const queue = [start];
    let end = null;
    while (queue.length > 0 && end === null) {
      const u = queue.shift();
      for (const w of graph.get(u) ?? []) {
        if (!inside.has(w)) continue;
        if (w === start) {
          end = u;
          break;
        }
        if (!prev.has(w)) {
          prev.set(w, u);
          queue.push(w);
        }
      }
    }
    const loop = [start];
    for (let u = end; u !== null && u !== start; u = prev.get(u)) loop.splice(1, 0, u);
    loop.push(start);
    return `import cycle (${component.length} files): ${loop.map(name).join(' -> ')}`;
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const found = [...violations(), ...cycles()];
  if (found.length > 0) {
    console.error(
      `check:arch: ${found.length} layering violation(s) or import cycle(s):\n  ${found.join('\n  ')}`,
    );
    process.exit(1);
  }
  console.log('check:arch: no layering violations, no import cycles');
}
