/**
 * Prints `--help` of citegeist and of every command and subcommand, each under a `### <path>`
 * heading, so two versions of the CLI can be diffed (`tsx scripts/help-texts.ts > before.txt`).
 * It runs the built CLI (`dist/cli/main.js`) as a user would; build first.
 */
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const main = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli', 'main.js');
const help = (path: string[]) =>
  execFileSync(process.execPath, [main, ...path, '--help'], { encoding: 'utf8' });

/** Command names listed under "Commands:" in a help text (the first word of each entry). */
function subcommands(text: string): string[] {
  const at = text.indexOf('\nCommands:\n');
  if (at < 0) return [];
  return text
    .slice(at + 11)
    .split('\n')
    .filter((l) => /^ {2}\S/.test(l))
    .map((l) => l.trim().split(/[\s|]/)[0]!)
    .filter((name) => name !== 'help');
}

const queue: string[][] = [[]];
while (queue.length > 0) {
  const path = queue.shift()!;
  const text = help(path);
  process.stdout.write(`### citegeist ${path.join(' ')}\n${text}\n`);
  for (const name of subcommands(text)) queue.push([...path, name]);
}
