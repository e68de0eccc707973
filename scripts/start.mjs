// `npm start`: builds the library, the extension and the demo, then serves the demo app and its
// REST server on PORT (or a free port) and says where everything is.
import { resolve } from 'node:path';
import { buildAll } from './build.mjs';

const built = await buildAll((text) => process.stdout.write(text));
const { startDemoServer } = await import(resolve(built.demo, 'server.mjs'));
const demo = await startDemoServer({ port: Number(process.env.PORT ?? 0), staticDir: built.demo });

console.log(`
RestLens demo running at ${demo.url}

Load the devtools extension unpacked:
  Chrome:  chrome://extensions → Developer mode → Load unpacked → ${resolve(built.extension[0])}
  Firefox: about:debugging#/runtime/this-firefox → Load Temporary Add-on → ${resolve(built.extension[1], 'manifest.json')}
Then open ${demo.url}, open DevTools and pick the "RestLens" panel.

Press Ctrl+C to stop.`);

process.on('SIGINT', () => demo.close().then(() => process.exit(0)));
