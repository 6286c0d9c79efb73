import { Argument, Command, Option } from 'commander';

/**
 * What `--help` shows of a command, as plain data: enough to rebuild the command's help without
 * loading the module that implements it (`programFromManifest`). The manifest of every command is
 * generated from the real program (`describeCommands`, `npm run cli:manifest`) into
 * `command-manifest.generated.ts`; a test fails when it is stale.
 */
export interface CommandSpec {
  name: string;
  description: string;
  aliases?: string[];
  summary?: string;
  hidden?: boolean;
  isDefault?: boolean;
  /** It runs something itself (commander then lists no `help` subcommand under it). */
  action?: boolean;
  arguments?: ArgumentSpec[];
  options?: OptionSpec[];
  commands?: CommandSpec[];
}

export interface ArgumentSpec {
  /** As declared: `<paths...>`, `[query]`. */
  usage: string;
  description: string;
  default?: unknown;
  defaultDescription?: string;
  choices?: string[];
}

export interface OptionSpec {
  flags: string;
  description: string;
  default?: unknown;
  defaultDescription?: string;
  choices?: string[];
  preset?: unknown;
  env?: string;
  hidden?: boolean;
  mandatory?: boolean;
}

/** The fields commander keeps on a command that its public API has no getter for. */
interface CommandInternals {
  _hidden?: boolean;
  _actionHandler?: unknown;
  _defaultCommandName?: string | null;
}

function describeArgument(a: Argument): ArgumentSpec {
  const name = `${a.name()}${a.variadic ? '...' : ''}`;
  return {
    usage: a.required ? `<${name}>` : `[${name}]`,
    description: a.description,
    ...(a.defaultValue !== undefined ? { default: a.defaultValue } : {}),
    ...(a.defaultValueDescription !== undefined ? { defaultDescription: a.defaultValueDescription } : {}),
    ...(a.argChoices ? { choices: [...a.argChoices] } : {}),
  };
}

function describeOption(o: Option): OptionSpec {
  return {
    flags: o.flags,
    description: o.description,
    ...(o.defaultValue !== undefined ? { default: o.defaultValue } : {}),
    ...(o.defaultValueDescription !== undefined ? { defaultDescription: o.defaultValueDescription } : {}),
    ...(o.argChoices ? { choices: [...o.argChoices] } : {}),
    ...(o.presetArg !== undefined ? { preset: o.presetArg } : {}),
    ...(o.envVar !== undefined ? { env: o.envVar } : {}),
    ...(o.hidden ? { hidden: true } : {}),
    ...(o.mandatory ? { mandatory: true } : {}),
  };
}

/** The manifest of a command and its subcommands (help and version options are left out). */
export function describeCommand(command: Command, parent?: Command): CommandSpec {
  const internals = command as unknown as CommandInternals;
  const isDefault =
    (parent as unknown as CommandInternals | undefined)?._defaultCommandName === command.name();
  const args = command.registeredArguments.map(describeArgument);
  const options = command.options.filter((o) => o.long !== '--version').map(describeOption);
  const commands = command.commands.map((c) => describeCommand(c, command));
  return {
    name: command.name(),
    description: command.description(),
    ...(command.aliases().length > 0 ? { aliases: [...command.aliases()] } : {}),
    ...(command.summary() ? { summary: command.summary() } : {}),
    ...(internals._hidden ? { hidden: true } : {}),
    ...(isDefault ? { isDefault: true } : {}),
    ...(internals._actionHandler && command.commands.length > 0 ? { action: true } : {}),
    ...(args.length > 0 ? { arguments: args } : {}),
    ...(options.length > 0 ? { options } : {}),
    ...(commands.length > 0 ? { commands } : {}),
  };
}

/** The manifests of a program's commands. */
export function describeCommands(program: Command): CommandSpec[] {
  return program.commands.map((c) => describeCommand(c, program));
}

/** Adds a command built from its manifest to `parent`: it has help, and no action. */
export function addFromManifest(parent: Command, spec: CommandSpec): Command {
  const command = new Command(spec.name).description(spec.description);
  for (const alias of spec.aliases ?? []) command.alias(alias);
  if (spec.summary) command.summary(spec.summary);
  for (const a of spec.arguments ?? []) {
    const argument = new Argument(a.usage, a.description);
    if (a.default !== undefined) argument.default(a.default, a.defaultDescription);
    if (a.choices) argument.choices(a.choices);
    command.addArgument(argument);
  }
  for (const o of spec.options ?? []) {
    const option = new Option(o.flags, o.description);
    if (o.default !== undefined) option.default(o.default, o.defaultDescription);
    if (o.choices) option.choices(o.choices);
    if (o.preset !== undefined) option.preset(o.preset);
    if (o.env !== undefined) option.env(o.env);
    if (o.hidden) option.hideHelp();
    if (o.mandatory) option.makeOptionMandatory();
    command.addOption(option);
  }
  // Never run: a command that runs is loaded first (`runCli`); the action only shapes its help.
  if (spec.action) command.action(() => {});
  for (const sub of spec.commands ?? []) addFromManifest(command, sub);
  parent.addCommand(command, {
    ...(spec.isDefault ? { isDefault: true } : {}),
    ...(spec.hidden ? { hidden: true } : {}),
  });
  return command;
}

/** The text of `command-manifest.generated.ts` for a program (formatted as the linter wants it). */
export function renderManifestModule(program: Command): string {
  return [
    '// Generated by `npm run cli:manifest` from the commands themselves: do not edit.',
    "import type { CommandSpec } from './command-manifest.js';",
    '',
    `export const COMMAND_MANIFEST: CommandSpec[] = ${JSON.stringify(describeCommands(program), null, 2)};`,
    '',
  ].join('\n');
}
