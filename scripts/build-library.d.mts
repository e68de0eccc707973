/** Where `buildLibrary` writes the library. */
export const LIBRARY_DIR: string;

/** Writes the library's ES modules, without declarations, to `outdir` (LIBRARY_DIR by default). */
export function buildLibraryModules(outdir?: string): Promise<void>;

/** Builds the library's ES modules and declarations; resolves with its entry points' files. */
export function buildLibrary(): Promise<string[]>;
