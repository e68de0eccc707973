/** The executable for `browser`; throws an Error saying how to provide one when none is found. */
export function findBrowser(browser: 'chromium' | 'firefox'): string;
