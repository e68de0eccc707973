// `npm run build`: the library into dist/library (ESM + declarations), the extension into
// dist/extension/{chrome,firefox}, and the demo app (built against dist/library) into dist/demo.
import { buildDemo } from './build-demo.mjs';
import { buildExtension } from './build-extension.mjs';
import { buildLibrary } from './build-library.mjs';

/** In this order: the demo imports the built library. */
const steps = [
  { name: 'library', what: 'the library (ES modules and declarations)', build: buildLibrary },
  { name: 'extension', what: 'the extension for Chrome and Firefox', build: buildExtension },
  { name: 'demo', what: 'the demo app and its REST server', build: buildDemo },
];

/**
 * Builds everything; resolves with what each step wrote. `write` is given the progress as text
 * ("Building the library (…)… 6.2 s" a line per step), so that a terminal shows what is going on
 * during the ten seconds or so this takes.
 */
export async function buildAll(write = () => {}) {
  const built = {};
  for (const { name, what, build } of steps) {
    write(`Building ${what}… `);
    const started = performance.now();
    built[name] = await build();
    write(`${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  }
  return built;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const built = await buildAll((text) => process.stdout.write(text));
  console.log(`library: ${built.library.join(', ')}`);
  console.log(`extension: ${built.extension.join(', ')}`);
  console.log(`demo: ${built.demo}`);
}
