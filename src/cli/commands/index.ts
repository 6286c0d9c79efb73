import type { RegisterCommand } from '../context.js';
import { registerDemo } from './demo.js';
import { registerGradeFaithfulness } from './grade-faithfulness.js';
import { registerMetaEvalFaithfulness } from './meta-eval-faithfulness.js';

/** Every CLI command, in the order `citegeist --help` lists them. */
export const COMMANDS: RegisterCommand[] = [
  registerDemo,
  registerGradeFaithfulness,
  registerMetaEvalFaithfulness,
];
