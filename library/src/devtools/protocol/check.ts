/**
 * Descriptions of the data the page and the panel exchange, each written once: the TypeScript
 * type comes from it (`Infer<typeof helloMessage>`), and so does the check of a value received,
 * and for the session file its JSON Schema. What arrives comes from a window or a port any script
 * may post on, so nothing is taken on trust.
 *
 * A check says what is wrong with a value: the path of the wrong part and what it must be
 * (`effects[3].pks[0]: expected a string`), or undefined when nothing is. It builds nothing for
 * a value that is right: the panel checks events by the thousand.
 *
 * Fields are read by name from plain objects (what a structured clone or JSON.parse makes), so a
 * description may not name a field every object inherits (`constructor`, `__proto__`, …): no
 * field is then read from the prototype. A record's keys are the value's own keys, whatever they
 * are (`__proto__` included), and a tag is looked up in a Map.
 */

/** A part of a path: a field name or a list index. */
export type PathPart = string | number;

/** What is wrong with a value. */
export interface Problem {
  /** Where the wrong part is, outermost first (empty: the value itself). */
  path: PathPart[];
  /** What it must be, in words: `a string`, `one of "apply", "send"`. */
  expected: string;
}

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A JSON Schema (draft 2020-12), as far as a description can say it. */
export type JsonSchema = { [keyword: string]: Json };

/**
 * What is wrong with a value, or undefined when nothing is. Throws when reading the value does
 * (a getter, a Proxy): callers that take values from a window catch it.
 */
export type FindProblem = (value: unknown) => Problem | undefined;

/**
 * The description of the values of type `T`: their check and their JSON Schema. Each check's
 * `problem` is a function of its own, which the checks holding it keep and call directly: the
 * panel runs them by the million, and a call through a method of many classes costs a lookup.
 */
export abstract class Check<T> {
  /** What a value must be, in words. */
  abstract readonly expected: string;
  /** What is wrong with a value, or undefined when it is a `T`. */
  abstract readonly problem: FindProblem;
  /** The JSON Schema of the values it accepts. */
  abstract jsonSchema(): JsonSchema;

  /** Whether a value is a `T` (throws as `problem` does). */
  accepts(value: unknown): value is T {
    return this.problem(value) === undefined;
  }
}

/** The type of the values a check accepts. */
export type Infer<C> = C extends Check<infer T> ? T : never;

const wrong = (expected: string): Problem => ({ path: [], expected });

/** A problem of a part, as a problem of the value holding it. */
function inside(part: PathPart, problem: Problem): Problem {
  problem.path.unshift(part);
  return problem;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A check of a value on its own (no parts to name). Each kind writes its own `problem` function,
 * which the engine can then inline where a list or an object calls it.
 */
class Leaf<T> extends Check<T> {
  constructor(
    readonly expected: string,
    readonly problem: FindProblem,
    private readonly schema: JsonSchema,
  ) {
    super();
  }
  jsonSchema(): JsonSchema {
    return this.schema;
  }
}

/** A string, possibly non-empty and of at most `max` UTF-16 code units. */
export function string({
  nonEmpty = false,
  max,
}: {
  nonEmpty?: boolean;
  max?: number;
} = {}): Check<string> {
  const least = nonEmpty ? 1 : 0;
  const most = max ?? Number.POSITIVE_INFINITY;
  const bounds = max === undefined ? '' : ` of at most ${max} characters`;
  const expected = `a ${nonEmpty ? 'non-empty ' : ''}string${bounds}`;
  return new Leaf<string>(
    expected,
    (value) =>
      typeof value === 'string' && value.length >= least && value.length <= most
        ? undefined
        : wrong(expected),
    {
      type: 'string',
      ...(nonEmpty ? { minLength: 1 } : {}),
      ...(max === undefined ? {} : { maxLength: max }),
    },
  );
}

/** A number; `finite` refuses NaN and ±Infinity (which a structured clone carries). */
export function number({
  finite = false,
  above,
}: {
  finite?: boolean;
  above?: number;
} = {}): Check<number> {
  const expected = `a ${finite ? 'finite ' : ''}number${above === undefined ? '' : ` above ${above}`}`;
  return new Leaf<number>(
    expected,
    (value) =>
      typeof value === 'number' &&
      (!finite || Number.isFinite(value)) &&
      (above === undefined || value > above)
        ? undefined
        : wrong(expected),
    { type: 'number', ...(above === undefined ? {} : { exclusiveMinimum: above }) },
  );
}

/** A whole number from `min` (to `max`), within what a double holds exactly. */
export function integer({ min, max }: { min: number; max?: number }): Check<number> {
  const most = max ?? Number.MAX_SAFE_INTEGER;
  const expected = `a whole number from ${min}${max === undefined ? '' : ` to ${max}`}`;
  return new Leaf<number>(
    expected,
    (value) =>
      Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= most
        ? undefined
        : wrong(expected),
    { type: 'integer', minimum: min, ...(max === undefined ? {} : { maximum: max }) },
  );
}

export function boolean(): Check<boolean> {
  return new Leaf<boolean>(
    'a boolean',
    (value) => (typeof value === 'boolean' ? undefined : wrong('a boolean')),
    { type: 'boolean' },
  );
}

type Primitive = string | number | boolean;

/** One of these values (one: that value). */
export function literal<const T extends readonly [Primitive, ...Primitive[]]>(
  ...values: T
): Check<T[number]> {
  const words = values.map((value) => JSON.stringify(value));
  const expected = values.length === 1 ? (words[0] as string) : `one of ${words.join(', ')}`;
  const [only] = values;
  return new Leaf<T[number]>(
    expected,
    values.length === 1
      ? (value) => (value === only ? undefined : wrong(expected))
      : (value) => (values.includes(value as Primitive) ? undefined : wrong(expected)),
    values.length === 1 ? { const: values[0] } : { enum: [...values] },
  );
}

/**
 * A value of a kind no combinator describes: `test` decides, `expected` says what it must be,
 * and `schema` says as much as JSON Schema can.
 */
export function custom<T>(
  expected: string,
  test: (value: unknown) => boolean,
  schema: JsonSchema = { description: expected },
): Check<T> {
  return new Leaf<T>(expected, (value) => (test(value) ? undefined : wrong(expected)), schema);
}

/**
 * Any value, left unchecked and typed `T`: for values the reader only shows, or checks itself
 * later (each mutation of a replay, as it is replayed).
 */
export function anyValue<T = unknown>(): Check<T> {
  return new Leaf<T>('any value', () => undefined, {});
}

/** A field that may be absent (or undefined); when present, `check` holds. */
export class Optional<T> extends Check<T | undefined> {
  readonly expected: string;
  readonly problem: FindProblem;
  constructor(private readonly check: Check<T>) {
    super();
    this.expected = check.expected;
    const present = check.problem;
    this.problem = (value) => (value === undefined ? undefined : present(value));
  }
  jsonSchema(): JsonSchema {
    return this.check.jsonSchema();
  }
}
export const optional = <T>(check: Check<T>): Optional<T> => new Optional(check);

/**
 * A field the format gives a type that readers do not rely on: any value is accepted, and a
 * reader takes it only when it has that type. So a hand-edited file is not refused for a field
 * nothing needs; the JSON Schema still says the type, for tools that write the format.
 */
export function lenient(check: Check<unknown>): Check<unknown> {
  return new Leaf<unknown>('any value', () => undefined, check.jsonSchema());
}

/** Null, or a value `check` accepts. */
class Nullable<T> extends Check<T | null> {
  readonly expected: string;
  readonly problem: FindProblem;
  constructor(private readonly check: Check<T>) {
    super();
    this.expected = `null, or ${check.expected}`;
    const notNull = check.problem;
    this.problem = (value) => (value === null ? undefined : notNull(value));
  }
  jsonSchema(): JsonSchema {
    return { anyOf: [{ type: 'null' }, this.check.jsonSchema()] };
  }
}
export const nullable = <T>(check: Check<T>): Check<T | null> => new Nullable(check);

/** A list (of at most `max` items) whose every item `item` accepts; a hole is an undefined item. */
class ListCheck<T> extends Check<T[]> {
  readonly expected: string;
  readonly problem: FindProblem;
  constructor(
    private readonly item: Check<T>,
    private readonly max = Number.POSITIVE_INFINITY,
  ) {
    super();
    const expected = Number.isFinite(max) ? `a list of at most ${max} items` : 'a list';
    this.expected = expected;
    const itemProblem = item.problem;
    this.problem = (value) => {
      if (!Array.isArray(value) || value.length > max) return wrong(expected);
      for (let index = 0; index < value.length; index++) {
        const problem = itemProblem(value[index]);
        if (problem !== undefined) return inside(index, problem);
      }
      return undefined;
    };
  }
  jsonSchema(): JsonSchema {
    const items = this.item.jsonSchema();
    return Number.isFinite(this.max)
      ? { type: 'array', items, maxItems: this.max }
      : { type: 'array', items };
  }
}
export const array = <T>(item: Check<T>, { max }: { max?: number } = {}): Check<T[]> =>
  new ListCheck(item, max);

/** An object whose own fields, whatever their names, `field` each accepts. */
class RecordCheck<T> extends Check<Record<string, T>> {
  readonly expected = 'an object';
  readonly problem: FindProblem;
  constructor(private readonly field: Check<T>) {
    super();
    const fieldProblem = field.problem;
    this.problem = (value) => {
      if (!isPlainObject(value)) return wrong('an object');
      for (const key of Object.keys(value)) {
        const problem = fieldProblem(value[key]);
        if (problem !== undefined) return inside(key, problem);
      }
      return undefined;
    };
  }
  jsonSchema(): JsonSchema {
    return { type: 'object', additionalProperties: this.field.jsonSchema() };
  }
}
export const record = <T>(field: Check<T>): Check<Record<string, T>> => new RecordCheck(field);

/** The descriptions of an object's fields, by name. */
export type Fields = Record<string, Check<unknown>>;
type OptionalKeys<F extends Fields> = {
  [K in keyof F]: F[K] extends Optional<unknown> ? K : never;
}[keyof F];
/** The object type of fields: each field's type, optional where its description is. */
export type ObjectOf<F extends Fields> = {
  -readonly [K in keyof F as K extends OptionalKeys<F> ? never : K]: Infer<F[K]>;
} & {
  -readonly [K in keyof F as K extends OptionalKeys<F> ? K : never]?: Infer<F[K]>;
} extends infer O
  ? { [K in keyof O]: O[K] }
  : never;

/** An object with these fields (others it may have are not read). */
export class ObjectCheck<F extends Fields> extends Check<ObjectOf<F>> {
  readonly expected = 'an object';
  readonly problem: FindProblem;
  private readonly entries: [string, Check<unknown>][];
  constructor(readonly fields: F) {
    super();
    this.entries = Object.entries(fields);
    for (const [name] of this.entries)
      if (name in Object.prototype)
        throw new TypeError(`a described field may not be named "${name}": objects inherit it`);
    const fieldProblems = this.entries.map(([name, check]) => ({ name, problem: check.problem }));
    this.problem = (value) => {
      if (!isPlainObject(value)) return wrong('an object');
      for (const field of fieldProblems) {
        const problem = field.problem(value[field.name]);
        if (problem !== undefined) return inside(field.name, problem);
      }
      return undefined;
    };
  }
  jsonSchema(): JsonSchema {
    const required = this.entries.filter(([, check]) => !(check instanceof Optional));
    return {
      type: 'object',
      required: required.map(([name]) => name),
      properties: Object.fromEntries(
        this.entries.map(([name, check]) => [name, check.jsonSchema()]),
      ),
    };
  }
}
export const object = <F extends Fields>(fields: F): ObjectCheck<F> => new ObjectCheck(fields);

/**
 * One of several objects, told apart by a tag field (`kind`, `type`): `members` maps each tag
 * value to the check of the objects that have it. A tag none maps is refused, or, when given,
 * checked by `otherwise` (a newer version's kinds, kept and shown by their tag).
 */
class Variants<T> extends Check<T> {
  readonly expected = 'an object';
  readonly problem: FindProblem;
  private readonly byTag: Map<unknown, Check<unknown>>;
  constructor(
    tag: string,
    members: Record<string, Check<unknown>>,
    private readonly otherwise?: Check<unknown>,
  ) {
    super();
    this.byTag = new Map(Object.entries(members));
    const problemByTag = new Map<unknown, FindProblem>(
      Object.entries(members).map(([value, member]) => [value, member.problem]),
    );
    const otherProblem = otherwise?.problem;
    const tagWords = `one of ${Object.keys(members)
      .map((value) => JSON.stringify(value))
      .join(', ')}`;
    this.problem = (value) => {
      if (!isPlainObject(value)) return wrong('an object');
      const member = problemByTag.get(value[tag]) ?? otherProblem;
      return member === undefined ? inside(tag, wrong(tagWords)) : member(value);
    };
  }
  jsonSchema(): JsonSchema {
    const members = [...new Set(this.byTag.values())].map((member) => member.jsonSchema());
    if (this.otherwise !== undefined) members.push(this.otherwise.jsonSchema());
    return { anyOf: members };
  }
}
/**
 * See Variants. Typed as the members' union: a value of `otherwise` (a kind this version does
 * not know) is typed as none of them, and readers show it by its tag only.
 */
export const variants = <M extends Record<string, Check<unknown>>>(
  tag: string,
  members: M,
  otherwise?: Check<unknown>,
): Check<Infer<M[keyof M]>> => new Variants(tag, members, otherwise);

/**
 * A value `first` accepts, then `then` accepts: `first` is a check that bounds the work of
 * `then` (a size before a walk of every part), or an envelope read before anything else.
 */
class Both<A, B> extends Check<A & B> {
  readonly expected: string;
  constructor(
    private readonly first: Check<A>,
    private readonly then: Check<B>,
  ) {
    super();
    this.expected = `${first.expected}, ${then.expected}`;
    const firstProblem = first.problem;
    const thenProblem = then.problem;
    this.problem = (value) => firstProblem(value) ?? thenProblem(value);
  }
  readonly problem: FindProblem;
  jsonSchema(): JsonSchema {
    return { allOf: [this.first.jsonSchema(), this.then.jsonSchema()] };
  }
}
export const both = <A, B>(first: Check<A>, then: Check<B>): Check<A & B> => new Both(first, then);

/** A value `check` accepts, of which `holds` is true (a rule across fields). */
class Refined<T> extends Check<T> {
  constructor(
    private readonly check: Check<T>,
    readonly expected: string,
    holds: (value: T) => boolean,
  ) {
    super();
    const checked = check.problem;
    this.problem = (value) => checked(value) ?? (holds(value as T) ? undefined : wrong(expected));
  }
  readonly problem: FindProblem;
  jsonSchema(): JsonSchema {
    return { ...this.check.jsonSchema(), $comment: `must be ${this.expected}` };
  }
}
export const refine = <T>(
  check: Check<T>,
  expected: string,
  holds: (value: T) => boolean,
): Check<T> => new Refined(check, expected, holds);

/**
 * `check` with a name for what it accepts (`a result key (a string)`), said when the value
 * itself is wrong; a wrong part of it is named by its own path.
 */
class Named<T> extends Check<T> {
  constructor(
    readonly expected: string,
    private readonly check: Check<T>,
  ) {
    super();
    const unnamed = check.problem;
    this.problem = (value) => {
      const problem = unnamed(value);
      return problem !== undefined && problem.path.length === 0 ? wrong(expected) : problem;
    };
  }
  readonly problem: FindProblem;
  jsonSchema(): JsonSchema {
    return this.check.jsonSchema();
  }
}
export const named = <T>(expected: string, check: Check<T>): Check<T> => new Named(expected, check);

/** `check`, with a description of what the value means in its JSON Schema. */
class Documented<T> extends Check<T> {
  readonly expected: string;
  constructor(
    private readonly check: Check<T>,
    private readonly description: string,
  ) {
    super();
    this.expected = check.expected;
    this.problem = check.problem;
  }
  readonly problem: FindProblem;
  jsonSchema(): JsonSchema {
    const schema = this.check.jsonSchema();
    // What the check itself says (a limit JSON Schema has no keyword for) follows the meaning.
    const limits = typeof schema.description === 'string' ? `: ${schema.description}` : '';
    return { ...schema, description: `${this.description}${limits}` };
  }
}
export const documented = <T>(check: Check<T>, description: string): Check<T> =>
  new Documented(check, description);

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** A path as code would write it: `effects[3].pks[0]`, `polling["GET /todos"]`. */
export function pathText(path: readonly PathPart[]): string {
  let text = '';
  for (const part of path) {
    if (typeof part === 'number') text += `[${part}]`;
    else if (IDENTIFIER.test(part)) text += text === '' ? part : `.${part}`;
    else text += `[${JSON.stringify(part)}]`;
  }
  return text;
}

/** A problem in words: `effects[3].pks[0]: expected a string`. */
export function problemText({ path, expected }: Problem): string {
  return path.length === 0 ? `expected ${expected}` : `${pathText(path)}: expected ${expected}`;
}

/**
 * A type guard from a check that answers false when reading the value throws (a getter or a
 * Proxy in a message a script of the page dispatched): an exception would escape the listener.
 */
export function guard<T>(check: Check<T>): (value: unknown) => value is T {
  return (value: unknown): value is T => {
    try {
      return check.problem(value) === undefined;
    } catch {
      return false;
    }
  };
}
