/** Source maps for the panel tests (this file holds no tests). */

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** One number in a source map's base64 VLQ. */
function vlq(value: number): string {
  let rest = value < 0 ? (-value << 1) | 1 : value << 1;
  let text = '';
  do {
    let digit = rest & 31;
    rest >>>= 5;
    if (rest > 0) digit |= 32;
    text += BASE64[digit];
  } while (rest > 0);
  return text;
}

/**
 * The JSON of a source map in which generated line `line` (from 1) comes, from its first column
 * on, from `source` at `sourceLine` (from 0), column 0; no other line is mapped.
 */
export function mapOneLine(line: number, source: string, sourceLine: number): string {
  const mappings = `${';'.repeat(line - 1)}${vlq(0)}${vlq(0)}${vlq(sourceLine)}${vlq(0)}`;
  return JSON.stringify({ version: 3, sources: [source], names: [], mappings });
}
