import { CitegeistError } from '../core/index.js';

/** Imports a module by name; injectable so tests can simulate a missing or fake package. */
export type ModuleImporter = (name: string) => Promise<unknown>;

/** A plain dynamic import; the specifier is a variable so TypeScript and bundlers leave it alone. */
export const dynamicImport: ModuleImporter = (name) => import(name);

/**
 * Loads an optional peer dependency, turning "not installed" into a CitegeistError that names the
 * exact install command. Other load errors (a broken native build) are wrapped with their message.
 */
export async function loadOptional<T>(
  name: string,
  version: string,
  purpose: string,
  importer: ModuleImporter = dynamicImport,
): Promise<T> {
  try {
    return (await importer(name)) as T;
  } catch (error) {
    const code = (error as { code?: string }).code;
    const message = (error as Error).message ?? String(error);
    if (
      code === 'ERR_MODULE_NOT_FOUND' ||
      code === 'MODULE_NOT_FOUND' ||
      /Cannot find (module|package)/.test(message)
    ) {
      throw new CitegeistError(
        'OPTIONAL_DEPENDENCY',
        `${purpose} needs the optional package ${name}, which is not installed.`,
        `Install it next to citegeist: \`npm install ${name}@${version}\`.`,
        { cause: error },
      );
    }
    throw new CitegeistError(
      'OPTIONAL_DEPENDENCY',
      `${purpose}: the package ${name} is installed but failed to load: ${message}`,
      `Reinstall it (\`npm install ${name}@${version}\`) and check its platform requirements.`,
      { cause: error },
    );
  }
}
