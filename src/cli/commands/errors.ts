import { CitegeistError, ERROR_CODES, isErrorCode } from '../../core/index.js';
import type { RegisterCommand } from '../context.js';

/** `citegeist errors [CODE]`: the error-code table (meaning and fix), or one code's entry. */
export const registerErrors: RegisterCommand = (program, ctx) => {
  program
    .command('errors')
    .description('list the error codes with their meaning and fix (or explain one code)')
    .argument('[code]', 'one code, e.g. BAD_OPTION')
    .action((code: string | undefined) => {
      const wanted = code?.toUpperCase();
      if (wanted !== undefined && !isErrorCode(wanted)) {
        throw new CitegeistError(
          'BAD_OPTION',
          `There is no error code ${JSON.stringify(code)}.`,
          'Run `citegeist errors` for the list.',
        );
      }
      const entries = Object.entries(ERROR_CODES).filter(([c]) => wanted === undefined || c === wanted);
      if (ctx.globals().json) {
        const json = entries.map(([c, info]) => ({ code: c, ...info }));
        ctx.io.out(`${JSON.stringify(json, null, 2)}\n`);
        return;
      }
      ctx.io.out(
        entries.map(([c, info]) => `${c} (${info.area})\n  ${info.meaning}\n  fix: ${info.fix}\n`).join(''),
      );
    });
};
