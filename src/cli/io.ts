/** Where a command writes and what it reads from its surroundings; tests pass their own. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** True when stderr is a terminal (progress bars redraw in place only then). */
  readonly interactive: boolean;
}

/**
 * The real process streams. When the reader of a stream goes away (`citegeist grade … | head`), its
 * writes fail with EPIPE: from then on that stream's output is dropped instead of crashing with a
 * stack trace, and the command finishes its work (its output files are still written in full).
 */
export function processIo(): CliIo {
  const out = guardedWriter(process.stdout);
  const err = guardedWriter(process.stderr);
  return {
    out,
    err,
    env: process.env,
    cwd: process.cwd(),
    interactive: Boolean(process.stderr.isTTY),
  };
}

function guardedWriter(stream: NodeJS.WriteStream): (text: string) => void {
  let closed = false;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    closed = true;
  });
  return (text) => {
    if (!closed) stream.write(text);
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
