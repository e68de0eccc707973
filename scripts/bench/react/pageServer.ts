/**
 * Serves the built pages on 127.0.0.1, cross-origin isolated (COOP and COEP headers): there
 * `performance.now()` ticks every 5 µs, where a file:// page's is coarsened to 100 µs with
 * jitter, as much as a whole sub-millisecond update takes.
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { OUT_DIR, PAGES, type PageName } from './build.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
};

export interface PageServer {
  urls: Record<PageName, string>;
  close(): Promise<void>;
}

export async function servePages(): Promise<PageServer> {
  const server = createServer(async (request, response) => {
    const name = new URL(request.url ?? '/', 'http://localhost').pathname.slice(1);
    const type = TYPES[name.slice(name.lastIndexOf('.'))];
    // Only the pages and their scripts, by their own names: nothing else under dist/ is served.
    const served = PAGES.some((page) => name === `${page}.html` || name === `${page}.js`);
    if (!served || type === undefined) {
      response.writeHead(404).end();
      return;
    }
    const body = await readFile(resolve(OUT_DIR, name));
    response.writeHead(200, {
      'Content-Type': type,
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Embedder-Policy': 'require-corp',
    });
    response.end(body);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  const urls = Object.fromEntries(
    PAGES.map((page) => [page, `http://127.0.0.1:${port}/${page}.html`]),
  ) as Record<PageName, string>;
  return {
    urls,
    close: () => new Promise<void>((closed) => server.close(() => closed())),
  };
}
