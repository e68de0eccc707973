/**
 * Where a union's result (or list member) points: its entity type and pk, as one string
 * (`["Post","5"]`) so that lists of union members are lists of strings like any other, and a
 * member is compared, deduplicated and removed like a pk.
 */
export function unionRef(entityKey: string, pk: string): string {
  return JSON.stringify([entityKey, pk]);
}

/** The entity type and pk a union reference names; undefined for text that is not one. */
export function parseUnionRef(ref: string): [entityKey: string, pk: string] | undefined {
  try {
    const parsed: unknown = JSON.parse(ref);
    return Array.isArray(parsed) &&
      parsed.length === 2 &&
      typeof parsed[0] === 'string' &&
      typeof parsed[1] === 'string'
      ? [parsed[0], parsed[1]]
      : undefined;
  } catch {
    return undefined;
  }
}
