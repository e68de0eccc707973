/**
 * The production bundle of a typical app (e2e/own-app, docs/getting-started.md's "Use it in your app":
 * createResource, Entity, DataProvider, useSuspense, useController), built with esbuild as
 * `npm run size` builds it, against the library as an app installs it. The issue's goal is
 * 15,000 bytes min+gzip (decimal kilobytes, as its figures: data-client 0.9.9's bundle of the same
 * app is about 15.4 kB); until it is reached, the bundle must not grow past its ceiling.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type AppBundle,
  CEILING_GZIPPED,
  GOAL_GZIPPED,
  measureRestLens,
  PARTS_WITHOUT_COUNTERPART,
} from '../../../scripts/size/measure.mjs';

let bundle: AppBundle;

beforeAll(async () => {
  bundle = await measureRestLens();
}, 60_000);

describe('the typical app’s production bundle', () => {
  it('does not grow past its ceiling on the way to the goal of 15,000 bytes min+gzip', () => {
    expect(GOAL_GZIPPED).toBe(15_000);
    expect(CEILING_GZIPPED).toBeGreaterThanOrEqual(GOAL_GZIPPED);
    expect(bundle.gzipped).toBeLessThanOrEqual(CEILING_GZIPPED);
  });

  it('holds none of the modules the app does not use', () => {
    const modules = bundle.parts.map((part) => part.name);
    expect(modules).toContain('rest/createResource.js');
    const unused = [
      /^devtools\//,
      /^endpoint\/(Index|Query)\.js$/,
      /^rest\/hookifyResource\.js$/,
      /^schema\/(All|EntityMixin|validateRequired)\.js$/,
      // `[Todo]` is a ListSchema: the polymorphic schema.Array, and the Union it makes, stay out.
      /^schema\/(Array|Polymorphic|Union|Values)\.js$/,
      /^react\/(AsyncBoundary|CacheProvider|NetworkErrorBoundary)\.js$/,
    ];
    expect(modules.filter((name) => unused.some((pattern) => pattern.test(name)))).toEqual([]);
  });

  it('holds every module `npm run size -- --floor` leaves out (that measure weighs what it names)', () => {
    const modules = bundle.parts.map((part) => part.name);
    const named = Object.values(PARTS_WITHOUT_COUNTERPART).flat();
    expect(named.filter((module) => !modules.includes(module))).toEqual([]);
  });
});
