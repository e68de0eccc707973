// `npm start`: builds everything there is to build and says what it built.
const { built } = await import('./build.mjs');
console.log('RestLens library built:');
for (const file of built) console.log(`  ${file}`);
