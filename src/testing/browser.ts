/**
 * Headless Chromium for the report's browser tests and bench: Debian's `chromium` driven by
 * playwright-core (no browser download). Not exported from `testing/index.ts`: playwright-core is a
 * development dependency. `.ci/run` installs chromium when it is absent.
 */
import { accessSync, constants, statSync } from 'node:fs';
import type { Browser } from 'playwright-core';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The Chromium executable: $CHROMIUM_PATH, else Debian's; null when there is none. */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string | null {
  const given = env.CHROMIUM_PATH;
  if (given) return executable(given) ? given : null;
  return CANDIDATES.find(executable) ?? null;
}

/** Why browser tests skip on this machine, or null when Chromium is there. */
export function chromiumMissing(): string | null {
  return chromiumPath()
    ? null
    : 'Chromium not found (/usr/bin/chromium or $CHROMIUM_PATH): install it with `apt-get install -y chromium` (.ci/run does) to run the browser tests.';
}

/** Launches headless Chromium with the flags this machine's closed network needs. */
export async function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error(chromiumMissing()!);
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}
