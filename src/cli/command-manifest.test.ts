import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMAND_MANIFEST } from './command-manifest.generated.js';
import { describeCommands } from './command-manifest.js';
import { COMMANDS } from './commands/index.js';
import { memoryIo } from './io.js';
import { commandToLoad, createProgram, helpProgram, runCli } from './program.js';

/** Every command path of a program: [], ['grade'], ['grade', 'faithfulness'], … */
function paths(command: Command, prefix: string[] = []): string[][] {
  return [prefix, ...command.commands.flatMap((c) => paths(c, [...prefix, c.name()]))];
}

/** The help text of one command path, as `citegeist <path> --help` prints it. */
function helpOf(program: Command, path: string[]): string {
  let command = program;
  for (const name of path) command = command.commands.find((c) => c.name() === name)!;
  return command.helpInformation();
}

describe('the command manifest (help without loading the commands)', () => {
  it('is what the commands themselves declare (else run `npm run cli:manifest`)', async () => {
    const { program } = await createProgram(memoryIo().io);
    expect(COMMAND_MANIFEST).toEqual(describeCommands(program));
  });

  it('gives every command and subcommand the same --help as the loaded command', async () => {
    const { program } = await createProgram(memoryIo().io);
    const fromManifest = await helpProgram(memoryIo().io);
    const all = paths(program);
    expect(all.length).toBeGreaterThan(50);
    for (const path of all) expect([path, helpOf(fromManifest, path)]).toEqual([path, helpOf(program, path)]);
  });

  it('prints the same help through runCli as the loaded program does', async () => {
    for (const argv of [
      ['--help'],
      ['grade', '--help'],
      ['nuggets', 'generate', '-h'],
      ['help', 'reports'],
    ]) {
      const lazy = memoryIo();
      expect(await runCli(argv, lazy.io)).toBe(0);
      const { program } = await createProgram(memoryIo().io);
      const path = argv.filter((w) => !w.startsWith('-') && w !== 'help');
      expect(lazy.stdout()).toBe(helpOf(program, path));
    }
  });

  it('lists each module under the one command it adds to', async () => {
    for (const entry of COMMANDS) {
      const { program } = await createProgram(memoryIo().io, entry.names[0]);
      expect(program.commands.map((c) => c.name())).toEqual(entry.names);
    }
  });

  it.each([
    [['answer', '--dataset', 'd'], 'answer'],
    [['--json', '--config', 'grade', 'grade'], 'grade'],
    [['--config=x.json', 'nuggets', 'generate'], 'nuggets'],
    [['answer', '--help'], null],
    [['--version'], null],
    [['-V'], null],
    [[], null],
    [['help', 'grade'], null],
    [['grde'], null],
    [['trec-eval', '--', '--help'], 'trec-eval'],
  ] as [string[], string | null][])('loads the command of %j: %s', (argv, name) => {
    expect(commandToLoad(argv)).toBe(name);
  });
});
