// Read from package.json where the library is built (scripts/build-library.mjs inlines it), so
// the version the panel is told is always the one published.
import { version } from '../../../../package.json';

/** The library's version, sent to the panel in each store's greeting. */
export const LIBRARY_VERSION: string = version;
