/** Where a command writes and what it reads from its surroundings; tests pass their own. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** True when stderr is a terminal (progress bars redraw in place only then). */
  readonly interactive: boolean;
}

export function processIo(): CliIo {
  return {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    interactive: Boolean(process.stderr.isTTY),
  };
}

/** Collects output in memory (for tests and for embedding the CLI). */
export function memoryIo(options: { env?: Record<string, string | undefined>; cwd?: string } = {}) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const io: CliIo = {
    out: (text) => void stdout.push(text),
    err: (text) => void stderr.push(text),
    env: options.env ?? {},
    cwd: options.cwd ?? process.cwd(),
    interactive: false,
  };
  return { io, stdout: () => stdout.join(''), stderr: () => stderr.join('') };
}
