import type { RegisterCommand } from '../context.js';
import { registerDemo } from './demo.js';
import { registerLlm } from './llm.js';
import { registerTrecEval } from './trec-eval.js';

/** Every CLI command, in the order `citegeist --help` lists them. */
export const COMMANDS: RegisterCommand[] = [registerDemo, registerLlm, registerTrecEval];
