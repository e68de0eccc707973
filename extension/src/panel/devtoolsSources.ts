import type { SourceAccess } from './sources.js';

/** A page resource as `chrome.devtools.inspectedWindow.getResources` lists it. */
interface PageResource {
  url: string;
  getContent(callback: (content: string | null) => void): void;
}

/** The parts of Chromium's (and Firefox's) `chrome.devtools` the sources need. */
export interface DevtoolsSourcesApi {
  inspectedWindow: { getResources?(callback: (resources: PageResource[]) => void): void };
  panels: {
    openResource?(
      url: string,
      lineNumber: number,
      columnNumber: number,
      callback?: () => void,
    ): void;
  };
}

/**
 * The page's sources through DevTools: a script's text from the inspected page's resources (no
 * permission needed), a source map from them too or else fetched (a `data:` map, or one the
 * extension may read); a place opened with `panels.openResource`.
 */
export function devtoolsSourceAccess(devtools: DevtoolsSourcesApi): SourceAccess {
  const resourceText = (url: string) =>
    new Promise<string | undefined>((resolve) => {
      const list = devtools.inspectedWindow.getResources;
      if (list === undefined) {
        resolve(undefined);
        return;
      }
      list((resources) => {
        const resource = resources.find((candidate) => candidate.url === url);
        if (resource === undefined) resolve(undefined);
        else resource.getContent((content) => resolve(content ?? undefined));
      });
    });
  return {
    async read(url) {
      const text = await resourceText(url);
      if (text !== undefined) return text;
      try {
        const response = await fetch(url);
        return response.ok ? await response.text() : undefined;
      } catch {
        return undefined;
      }
    },
    open({ url, line, column }) {
      // DevTools counts lines and columns from 0 here.
      devtools.panels.openResource?.(url, line - 1, column - 1, () => {});
    },
  };
}
