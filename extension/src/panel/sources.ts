import type { TraceFrame } from '../../../library/src/devtools/protocol/effects.js';
import { type SourceLocation, SourceMap, sourceMapUrl } from './sourceMap.js';

/** What the panel needs of DevTools to show the app's sources. */
export interface SourceAccess {
  /** The text of a page resource (a script, its source map); undefined when it cannot be read. */
  read(url: string): Promise<string | undefined>;
  /** Opens a place (line and column from 1) in DevTools' Sources panel. */
  open(location: SourceLocation): void;
}

/** Where a frame of a trace points: in the app's own source when a source map says so. */
export interface FrameLocation extends SourceLocation {
  /** Found through the script's source map (otherwise: the place in the script itself). */
  mapped: boolean;
}

/**
 * The app's sources, as the trace of an action points into them: each script's source map is
 * read once (a failure is remembered too), and a frame is shown and opened where the map says
 * it came from.
 */
export class Sources {
  private readonly maps = new Map<string, Promise<SourceMap | undefined>>();

  constructor(private readonly access: SourceAccess) {}

  /** Where the frame is in the app's own sources; the frame's own place when no map says. */
  async locate(frame: TraceFrame): Promise<FrameLocation> {
    const own = { url: frame.url, line: frame.line, column: frame.column, mapped: false };
    const map = await this.mapOf(frame.url);
    const original = map?.original(frame.line, frame.column);
    return original ? { ...original, mapped: true } : own;
  }

  open(location: SourceLocation): void {
    this.access.open(location);
  }

  private mapOf(scriptUrl: string): Promise<SourceMap | undefined> {
    let map = this.maps.get(scriptUrl);
    if (map === undefined) {
      map = this.readMap(scriptUrl);
      this.maps.set(scriptUrl, map);
    }
    return map;
  }

  private async readMap(scriptUrl: string): Promise<SourceMap | undefined> {
    const script = await this.access.read(scriptUrl);
    const mapUrl = script === undefined ? undefined : sourceMapUrl(script, scriptUrl);
    const text = mapUrl === undefined ? undefined : await this.access.read(mapUrl);
    if (mapUrl === undefined || text === undefined) return undefined;
    try {
      // An inline map's sources are relative to its script (a data: address is no base).
      return new SourceMap(text, mapUrl.startsWith('data:') ? scriptUrl : mapUrl);
    } catch {
      // A map the panel cannot read leaves the frames where the script has them.
      return undefined;
    }
  }
}
