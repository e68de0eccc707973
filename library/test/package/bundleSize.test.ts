/**
 * The production bundle of a typical app (scripts/size/app.tsx: createResource, Entity,
 * DataProvider, useSuspense, useController), built with esbuild as `npm run size` builds it, against
 * the library as an app installs it. Its budget is 15,000 bytes min+gzip (decimal kilobytes, as
 * the issue's figures: data-client 0.9.9's bundle of the same app is about 15.4 kB).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type AppBundle, BUDGET_GZIPPED, measureRestLens } from '../../../scripts/size/measure.mjs';

let bundle: AppBundle;

beforeAll(async () => {
  bundle = await measureRestLens();
}, 60_000);

describe('the typical app’s production bundle', () => {
  it('stays within 15,000 bytes min+gzip', () => {
    expect(BUDGET_GZIPPED).toBe(15_000);
    expect(bundle.gzipped).toBeLessThanOrEqual(BUDGET_GZIPPED);
  });

  it('holds none of the modules the app does not use', () => {
    const modules = bundle.parts.map((part) => part.name);
    expect(modules).toContain('rest/createResource.js');
    const unused = [
      /^devtools\//,
      /^endpoint\/(Index|Query)\.js$/,
      /^rest\/hookifyResource\.js$/,
      /^schema\/(All|EntityMixin|validateRequired)\.js$/,
      /^react\/(AsyncBoundary|CacheProvider|NetworkErrorBoundary)\.js$/,
    ];
    expect(modules.filter((name) => unused.some((pattern) => pattern.test(name)))).toEqual([]);
  });
});
