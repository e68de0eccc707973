/**
 * The library as a production build has it (`process.env.NODE_ENV` defined as "production", as
 * bundlers define it): the long messages and the checks of definitions are left out, and what
 * still fails at run time fails with the same error class and a short message naming the call
 * and what was wrong. The other tests run the library in development, with the long messages.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as Library from '../../src/index.js';

/** The library's main entry point, bundled as an app's bundler would for `nodeEnv` (not minified). */
async function bundleLibrary(nodeEnv: 'production' | 'development'): Promise<string> {
  const result = await build({
    stdin: { contents: "export * from './library/src/index.ts';", resolveDir: process.cwd() },
    bundle: true,
    format: 'esm',
    platform: 'node',
    define: { 'process.env.NODE_ENV': JSON.stringify(nodeEnv) },
    // What drops the code under a condition the define made constant, as in an app's build.
    minifySyntax: true,
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]?.text ?? '';
}

/** Text of messages that production builds leave out. */
const LONG_MESSAGES = [
  'one argument is the body: pass the URL parameters first',
  'the origin belongs in urlPrefix',
  'the first argument must be an endpoint (such as TodoResource.get)',
  'a dot segment would leave the path',
  ' takes one options object ({ path, schema, ... })',
  'must be a number of milliseconds',
  'expected a list but received',
  'schema.Union expects an object but received',
  'Capturing groups are not allowed',
];

const folder = mkdtempSync(join(tmpdir(), 'restlens-production-'));
let production: string;
let library: typeof Library;

beforeAll(async () => {
  production = await bundleLibrary('production');
  const file = join(folder, 'restlens.mjs');
  writeFileSync(file, production);
  library = await import(pathToFileURL(file).href);
}, 60_000);

afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('a production build of the library', () => {
  it('leaves the long messages out, which a development build has', async () => {
    const development = await bundleLibrary('development');
    for (const message of LONG_MESSAGES) {
      expect(development).toContain(message);
      expect(production).not.toContain(message);
    }
  });

  it('fails at run time as a development build does, with a short message', async () => {
    const { createStore, RestEndpoint } = library;
    const { controller } = createStore();
    const fetchAsJavaScript = controller.fetch as (...args: unknown[]) => Promise<unknown>;
    await expect(fetchAsJavaScript(undefined)).rejects.toThrow(
      new TypeError('controller.fetch: not an endpoint'),
    );
    const getTodo = new RestEndpoint({ path: '/todos/:id', name: 'getTodo' });
    expect(() => getTodo.url({} as never)).toThrow(
      new TypeError('getTodo: missing URL parameter "id"'),
    );
    expect(() => getTodo.url({ id: '..' })).toThrow(
      new TypeError('getTodo: the URL parameter "id" cannot be ".."'),
    );
    expect(() => getTodo.url({ id: {} as never })).toThrow(
      new TypeError('getTodo: the URL parameter "id" is an object'),
    );
    const getResponseAsJavaScript = controller.getResponse as (...args: unknown[]) => unknown;
    expect(() => getResponseAsJavaScript(getTodo, { id: 1 })).toThrow(
      new TypeError('controller.getResponse: the last argument is not the state'),
    );
    expect(getTodo.url({ id: 'a b' })).toBe('/todos/a%20b');
    const broken = new RestEndpoint({ path: '/todos/:', name: 'broken' });
    expect(() => broken.url({})).toThrow(
      new TypeError('the path "/todos/:" is not a path template'),
    );
  });

  it('copies what the store is given but freezes nothing, which development builds do', async () => {
    const { createStore, Endpoint } = library;
    const settings = new Endpoint(async () => ({}), { name: 'settings' });
    const { controller, getState } = createStore();
    const given = { theme: { dark: true }, recent: ['a'] };
    await controller.setResponse(settings, given);
    given.recent.push('b');
    const stored = controller.getResponse(settings, getState()).data as typeof given;
    expect(stored).toEqual({ theme: { dark: true }, recent: ['a'] });
    expect(Object.isFrozen(stored)).toBe(false);
    expect(Object.isFrozen(stored.recent)).toBe(false);
    // The freezing walk is left out of the bundle, not merely skipped.
    expect(production).not.toContain('isFrozen');

    const development = await import('../../src/index.js');
    const developmentStore = development.createStore();
    const developmentSettings = new development.Endpoint(async () => ({}), { name: 'settings' });
    await developmentStore.controller.setResponse(developmentSettings, { recent: ['a'] });
    const frozen = developmentStore.controller.getResponse(
      developmentSettings,
      developmentStore.getState(),
    ).data as { recent: string[] };
    expect(Object.isFrozen(frozen.recent)).toBe(true);
  });

  it('checks definitions in development builds only', async () => {
    const development = await import('../../src/index.js');
    const noParameter = { path: '/todos', schema: development.Entity };
    expect(() => development.createResource(noParameter as never)).toThrow(
      'createResource: path "/todos" needs at least one :parameter',
    );
    const { createResource, Endpoint, Entity } = library;
    expect(() => createResource({ ...noParameter, schema: Entity } as never)).not.toThrow();
    const options = { dataExpiryLength: '60000' as never };
    expect(() => new development.Endpoint(async () => 1, options)).toThrow(TypeError);
    expect(() => new Endpoint(async () => 1, options)).not.toThrow();
  });
});
