// `npm start`: builds everything there is to build and says what it built.
import { buildAll } from './build.mjs';

const built = await buildAll();
console.log('RestLens library built:');
for (const file of built.library) console.log(`  ${file}`);
console.log('Extension built — load it unpacked:');
for (const dir of built.extension) console.log(`  ${dir}`);
