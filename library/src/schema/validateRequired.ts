/**
 * data-client's helper for `static validate`: the reason a processed row cannot be stored when
 * it lacks one of the fields of `requiredDefaults` (`Missing key name`), or undefined. Written
 * in an entity as data-client's documentation writes it:
 *
 *   static validate(processed) { return validateRequired(processed, this.defaults); }
 *
 * A field counts as present when the row has it as its own, even as `undefined` or `null`: the
 * server sent it.
 */
export function validateRequired(
  processedEntity: object,
  requiredDefaults: object,
): string | undefined {
  const missing = Object.keys(requiredDefaults).find((key) => !Object.hasOwn(processedEntity, key));
  return missing === undefined ? undefined : `Missing key ${missing}`;
}
