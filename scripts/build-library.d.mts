/** Where `buildLibrary` writes the library. */
export const LIBRARY_DIR: string;

/** Builds the library's ESM bundles and declarations; resolves with its entry points' files. */
export function buildLibrary(): Promise<string[]>;
