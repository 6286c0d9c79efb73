import type { RegisterCommand } from '../context.js';
import { registerIndex } from './build-index.js';
import { registerCompare } from './compare.js';
import { registerDemo } from './demo.js';
import { registerIngest } from './ingest.js';
import { registerList } from './list.js';
import { registerLlm } from './llm.js';
import { registerQuote } from './quote.js';
import { registerRecipes } from './recipes.js';
import { registerRetrieve } from './retrieve.js';
import { registerSearch } from './search.js';
import { registerShow } from './show.js';
import { registerTrecEval } from './trec-eval.js';

/** Every CLI command, in the order `citegeist --help` lists them. */
export const COMMANDS: RegisterCommand[] = [
  registerDemo,
  registerIngest,
  registerList,
  registerShow,
  registerQuote,
  registerLlm,
  registerIndex,
  registerSearch,
  registerRetrieve,
  registerRecipes,
  registerTrecEval,
  registerCompare,
];
