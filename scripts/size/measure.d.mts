/** The budget of the typical app's bundle, min+gzip, in bytes. */
export const BUDGET_GZIPPED: number;

export interface AppBundle {
  /** Bytes of the minified bundle. */
  minified: number;
  /** Bytes of the minified bundle gzipped (level 9). */
  gzipped: number;
  /** The bytes each library module (`rest/paths.js`) or package put in the bundle, biggest first. */
  parts: { name: string; bytes: number }[];
}

/** The typical app's production bundle against RestLens, built and installed from this repository. */
export function measureRestLens(): Promise<AppBundle>;

/** The same app against @data-client/rest and @data-client/react 0.9.9. */
export function measureDataClient(): Promise<AppBundle>;
