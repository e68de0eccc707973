/** Where `buildExtension` writes the `chrome` and `firefox` directories. */
export const EXTENSION_DIR: string;

/** A manifest.json, as parsed. */
export type Manifest = Record<string, unknown>;

/** The manifest for one browser, from the one root manifest.json (which it does not change). */
export function manifestFor(browser: 'chrome' | 'firefox', manifest: Manifest): Manifest;

/** Builds both browsers' extensions; resolves with their directories. */
export function buildExtension(): Promise<string[]>;
