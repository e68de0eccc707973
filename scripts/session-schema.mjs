// `node scripts/session-schema.mjs` writes library/src/devtools/protocol/session.schema.json, the
// session format's JSON Schema for other tools, from the format's one description (session.ts).
// A test fails when the file differs from what this writes: run it after changing the format.
import { writeFileSync } from 'node:fs';
import { build } from 'esbuild';

/** Where the session format's JSON Schema is kept, from the project's root. */
export const SESSION_SCHEMA_PATH = 'library/src/devtools/protocol/session.schema.json';

/** The file's text for a schema: JSON, two spaces a level, ending with a newline. */
export const sessionSchemaText = (schema) => `${JSON.stringify(schema, null, 2)}\n`;

/** The schema session.ts writes, from its sources (bundled, then imported). */
async function describedSchema() {
  const bundled = await build({
    entryPoints: ['library/src/devtools/protocol/session.ts'],
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    logLevel: 'warning',
  });
  const source = Buffer.from(bundled.outputFiles[0].text).toString('base64');
  const { sessionJsonSchema } = await import(`data:text/javascript;base64,${source}`);
  return sessionJsonSchema();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(SESSION_SCHEMA_PATH, sessionSchemaText(await describedSchema()));
}
