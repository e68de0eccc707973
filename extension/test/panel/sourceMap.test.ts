// @vitest-environment node
import { transform } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { devtoolsSourceAccess } from '../../src/panel/devtoolsSources.js';
import { SourceMap, sourceMapUrl } from '../../src/panel/sourceMap.js';

const APP_SOURCE = [
  "import { useSuspense } from 'restlens/react';",
  '',
  'export function TodoList({ userId }: { userId: number }) {',
  '  const todos = useSuspense(TodoResource.getList, { userId });',
  '  return todos.length;',
  '}',
].join('\n');

describe('source maps', () => {
  it("finds where a place of esbuild's output came from in the TypeScript source", async () => {
    const { code, map } = await transform(APP_SOURCE, {
      loader: 'ts',
      sourcemap: 'external',
      sourcefile: 'TodoList.tsx',
      minify: true,
    });
    const generated = code.split('\n');
    // A global keeps its name through minifying: the place of its use is found in the output.
    const line = generated.findIndex((text) => text.includes('TodoResource')) + 1;
    const column = (generated[line - 1] as string).indexOf('TodoResource') + 1;
    const sourceMap = new SourceMap(map, 'http://app.test/assets/app.js.map');
    expect(sourceMap.original(line, column)).toEqual({
      url: 'http://app.test/assets/TodoList.tsx',
      line: 4,
      column: 29,
    });
    expect(sourceMap.original(generated.length + 5, 1)).toBeUndefined();
  });

  it('refuses a map that is not version 3, by what it lacks', () => {
    expect(() => new SourceMap('{"version":2}', 'http://app.test/a.map')).toThrow(
      'source map: not a version 3 map with sources and mappings',
    );
  });

  it("reads a script's last sourceMappingURL, relative to the script or absolute", () => {
    const script = 'a()\n//# sourceMappingURL=old.map\nb()\n//# sourceMappingURL=app.js.map\n';
    expect(sourceMapUrl(script, 'http://app.test/js/app.js')).toBe('http://app.test/js/app.js.map');
    expect(
      sourceMapUrl('x\n//# sourceMappingURL=data:application/json;base64,e30=', 'http://a/b.js'),
    ).toBe('data:application/json;base64,e30=');
    expect(sourceMapUrl('no map here', 'http://app.test/js/app.js')).toBeUndefined();
  });

  it('opens a place in DevTools counting from 0, as openResource does', () => {
    const calls: unknown[][] = [];
    const access = devtoolsSourceAccess({
      inspectedWindow: {},
      panels: { openResource: (...args: unknown[]) => calls.push(args.slice(0, 3)) },
    });
    access.open({ url: 'http://app.test/src/App.tsx', line: 42, column: 7 });
    expect(calls).toEqual([['http://app.test/src/App.tsx', 41, 6]]);
  });
});
