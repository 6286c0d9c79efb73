#!/usr/bin/env node
import { installInterruptHandlers } from './interrupt.js';
import { processIo } from './io.js';
import { runCli } from './program.js';

const io = processIo();
installInterruptHandlers(io);
const code = await runCli(process.argv.slice(2), io);
process.exitCode = code;
