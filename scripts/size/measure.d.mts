/** The goal for the typical app's bundle, min+gzip, in bytes. */
export const GOAL_GZIPPED: number;

/** What the typical app's bundle must not grow past, min+gzip, in bytes. */
export const CEILING_GZIPPED: number;

export interface AppBundle {
  /** Bytes of the minified bundle. */
  minified: number;
  /** Bytes of the minified bundle gzipped (level 9). */
  gzipped: number;
  /** The bytes each library module (`rest/paths.js`) or package put in the bundle, biggest first. */
  parts: { name: string; bytes: number }[];
}

/**
 * The typical app's production bundle against RestLens, built and installed from this repository;
 * `without` names built modules (`normalize/trie.js`) replaced by stubs, to weigh the rest.
 */
export function measureRestLens(options?: { without?: readonly string[] }): Promise<AppBundle>;

/** The parts of RestLens data-client has no counterpart for, by what they do: their modules. */
export const PARTS_WITHOUT_COUNTERPART: Record<string, readonly string[]>;

/** The same app against @data-client/rest and @data-client/react 0.9.9. */
export function measureDataClient(): Promise<AppBundle>;
