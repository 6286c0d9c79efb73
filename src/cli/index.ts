/** `citegeist/cli`: the CLI as a library — run it in-process with your own I/O (tests, embedding). */
export { type CliIo, memoryIo, processIo } from './io.js';
export { runCli } from './program.js';
