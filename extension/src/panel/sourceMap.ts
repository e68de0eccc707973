/** A place in a file: its address, and line and column from 1. */
export interface SourceLocation {
  url: string;
  line: number;
  column: number;
}

/** One mapping of a generated line: from its column to a place in an original source. */
interface Segment {
  column: number;
  source: number;
  line: number;
  sourceColumn: number;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGITS = new Map([...BASE64].map((char, index) => [char, index]));

/** The numbers of one segment of `mappings` (base64 VLQ); throws on a character that is not. */
function decodeSegment(text: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of text) {
    const digit = DIGITS.get(char);
    if (digit === undefined) throw new Error(`source map: "${char}" is not base64`);
    value += (digit & 31) * 2 ** shift;
    shift += 5;
    if ((digit & 32) === 0) {
      values.push(value % 2 === 1 ? -(value - 1) / 2 : value / 2);
      value = 0;
      shift = 0;
    }
  }
  return values;
}

/**
 * A source map (version 3, without sections), read once: where each place of the generated file
 * came from.
 */
export class SourceMap {
  private readonly lines: Segment[][] = [];
  private readonly sources: string[];

  /** `map` is the map's JSON text; `mapUrl` where it is (its sources are relative to it). */
  constructor(map: string, mapUrl: string) {
    const parsed = JSON.parse(map) as {
      version?: unknown;
      sources?: unknown;
      sourceRoot?: unknown;
      mappings?: unknown;
    };
    if (
      parsed.version !== 3 ||
      typeof parsed.mappings !== 'string' ||
      !Array.isArray(parsed.sources)
    )
      throw new Error('source map: not a version 3 map with sources and mappings');
    const root =
      typeof parsed.sourceRoot === 'string' && parsed.sourceRoot !== ''
        ? parsed.sourceRoot.replace(/\/?$/, '/')
        : '';
    this.sources = parsed.sources.map((source) => new URL(`${root}${String(source)}`, mapUrl).href);
    let source = 0;
    let line = 0;
    let sourceColumn = 0;
    for (const text of parsed.mappings.split(';')) {
      const segments: Segment[] = [];
      let column = 0;
      for (const part of text.split(',')) {
        if (part === '') continue;
        const [columnDelta = 0, sourceDelta, lineDelta, sourceColumnDelta] = decodeSegment(part);
        column += columnDelta;
        if (sourceDelta === undefined || lineDelta === undefined || sourceColumnDelta === undefined)
          continue;
        source += sourceDelta;
        line += lineDelta;
        sourceColumn += sourceColumnDelta;
        segments.push({ column, source, line, sourceColumn });
      }
      this.lines.push(segments);
    }
  }

  /** Where a place of the generated file (line and column from 1) came from, if it is mapped. */
  original(line: number, column: number): SourceLocation | undefined {
    const segments = this.lines[line - 1];
    if (segments === undefined) return undefined;
    let found: Segment | undefined;
    for (const segment of segments) {
      if (segment.column > column - 1) break;
      found = segment;
    }
    const url = found && this.sources[found.source];
    if (found === undefined || url === undefined) return undefined;
    return { url, line: found.line + 1, column: found.sourceColumn + 1 };
  }
}

/** The address of a script's source map, from its last `sourceMappingURL` comment. */
export function sourceMapUrl(script: string, scriptUrl: string): string | undefined {
  const matches = [...script.matchAll(/[#@] sourceMappingURL=(\S+)\s*$/gm)];
  const last = matches.at(-1)?.[1];
  if (last === undefined) return undefined;
  try {
    return (URL.canParse(last) ? new URL(last) : new URL(last, scriptUrl)).href;
  } catch {
    return undefined;
  }
}
