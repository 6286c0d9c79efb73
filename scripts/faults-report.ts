/**
 * `npm run faults:report [-- vitest args]`: runs the fault campaign (`vitest.faults.config.ts`) with
 * CITEGEIST_FAULT_FIGURES pointing at a scratch folder, where each campaign records the figures of
 * its docs/reliability.md sections, then writes those sections into the doc. Tests never write
 * docs; this script does, and only after the campaign passed (figures of a failed run are not
 * published). Extra arguments go to vitest, e.g. a file to refresh one campaign's sections.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DOC = join(ROOT, 'docs', 'reliability.md');

/** Replaces the body of `## <title>` (up to the next `## `); other sections stay as they are. */
export function replaceSection(text: string, title: string, body: string): string {
  const heading = `\n## ${title}\n`;
  const start = text.indexOf(heading);
  if (start < 0) throw new Error(`docs/reliability.md has no section "## ${title}"`);
  const from = start + heading.length;
  const next = text.indexOf('\n## ', from);
  const end = next < 0 ? text.length : next;
  return `${text.slice(0, from)}\n${body.trim()}\n${text.slice(end)}`;
}

function main(): number {
  const figures = mkdtempSync(join(tmpdir(), 'citegeist-fault-figures-'));
  try {
    const vitest = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
    const run = spawnSync(
      process.execPath,
      [vitest, 'run', '--config', 'vitest.faults.config.ts', ...process.argv.slice(2)],
      { cwd: ROOT, stdio: 'inherit', env: { ...process.env, CITEGEIST_FAULT_FIGURES: figures } },
    );
    if (run.status !== 0) {
      console.error('faults:report: the campaign failed; docs/reliability.md is left as it was.');
      return run.status ?? 1;
    }
    let text = readFileSync(DOC, 'utf8');
    const files = readdirSync(figures).filter((f) => f.endsWith('.json'));
    for (const file of files) {
      const { title, body } = JSON.parse(readFileSync(join(figures, file), 'utf8')) as {
        title: string;
        body: string;
      };
      text = replaceSection(text, title, body);
    }
    writeFileSync(DOC, text);
    console.log(`faults:report: ${files.length} section(s) of docs/reliability.md written.`);
    return 0;
  } finally {
    rmSync(figures, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main();
