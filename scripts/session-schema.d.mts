/** Where the session format's JSON Schema is kept, from the project's root. */
export const SESSION_SCHEMA_PATH: string;

/** The file's text for a schema: JSON, two spaces a level, ending with a newline. */
export function sessionSchemaText(schema: unknown): string;
