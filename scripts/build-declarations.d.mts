/** The folder of the declarations for TypeScript 4.3–4.9, inside the declarations folder. */
export const DOWNLEVEL_DIR: string;

/** Writes the library's declarations (and their 4.3–4.9 copy) to `outDir`; returns it. */
export function emitDeclarations(outDir?: string): string;
