// Finds the browsers the end-to-end tests drive: CHROMIUM_PATH / FIREFOX_PATH, or the usual
// system paths (Debian's `chromium` and `firefox-esr` packages).
import { existsSync } from 'node:fs';

const CANDIDATES = {
  chromium: {
    variable: 'CHROMIUM_PATH',
    paths: [
      '/usr/bin/chromium',
      '/usr/lib/chromium/chromium',
      '/usr/bin/chromium-browser',
      '/usr/bin/google-chrome',
    ],
    install: 'apt-get install chromium',
  },
  firefox: {
    variable: 'FIREFOX_PATH',
    paths: ['/usr/bin/firefox-esr', '/usr/bin/firefox'],
    install: 'apt-get install firefox-esr',
  },
};

/** The executable for `browser`, or an Error that says how to provide one. */
export function findBrowser(browser) {
  const { variable, paths, install } = CANDIDATES[browser];
  const fromEnv = process.env[variable];
  if (fromEnv) {
    if (existsSync(fromEnv)) return fromEnv;
    throw new Error(`${variable} is set to ${fromEnv}, which does not exist`);
  }
  const found = paths.find((path) => existsSync(path));
  if (found) return found;
  throw new Error(
    `No ${browser} found (looked at ${paths.join(', ')}). Install it (${install}) or set ${variable}.`,
  );
}
