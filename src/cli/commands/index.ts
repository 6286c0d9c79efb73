import type { RegisterCommand } from '../context.js';
import { registerAnswer } from './answer.js';
import { registerCollect } from './collect.js';
import { registerDataset } from './dataset.js';
import { registerDemo } from './demo.js';
import { registerGenerate } from './generate.js';
import { registerGrade } from './grade.js';
import { registerLeaderboard } from './leaderboard.js';
import { registerQasperEval } from './qasper-eval.js';
import { registerQuote } from './quote.js';
import { registerTrecEval } from './trec-eval.js';

/** Every CLI command, in the order `citegeist --help` lists them. */
export const COMMANDS: RegisterCommand[] = [
  registerDemo,
  registerDataset,
  registerCollect,
  registerGenerate,
  registerAnswer,
  registerGrade,
  registerLeaderboard,
  registerQasperEval,
  registerQuote,
  registerTrecEval,
];
