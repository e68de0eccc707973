/**
 * The marker stored in place of an entity that `schema.Invalidate` removed.
 *
 * It is a plain frozen object rather than a Symbol so that the store stays JSON-serializable
 * (snapshots for the devtools, fixtures for replay); `isInvalid` recognizes it by shape, so a
 * copy that went through JSON is still INVALID.
 */
export const INVALID: Readonly<{ '@@restlens/invalid': true }> = Object.freeze({
  '@@restlens/invalid': true,
});
/** The type of the INVALID marker. */
export type Invalid = typeof INVALID;

/** Whether a value is the INVALID marker, or a copy of it that went through JSON. */
export function isInvalid(value: unknown): value is Invalid {
  return (
    value === INVALID ||
    (typeof value === 'object' &&
      value !== null &&
      (value as Record<string, unknown>)['@@restlens/invalid'] === true)
  );
}
