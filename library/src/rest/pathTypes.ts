/**
 * Generative types: the URL parameters a path template takes. `:id` is required, `:id?`
 * optional; escaped characters (`\\?` literal query text) end a parameter name.
 */

/** The part of a parameter that is its name: word characters up to the first other one. */
type NameOf<S extends string, Acc extends string = ''> = S extends `${infer C}${infer Rest}`
  ? C extends WordChar
    ? NameOf<Rest, `${Acc}${C}`>
    : [Acc, S]
  : [Acc, ''];

type WordChar =
  | 'a'
  | 'b'
  | 'c'
  | 'd'
  | 'e'
  | 'f'
  | 'g'
  | 'h'
  | 'i'
  | 'j'
  | 'k'
  | 'l'
  | 'm'
  | 'n'
  | 'o'
  | 'p'
  | 'q'
  | 'r'
  | 's'
  | 't'
  | 'u'
  | 'v'
  | 'w'
  | 'x'
  | 'y'
  | 'z'
  | 'A'
  | 'B'
  | 'C'
  | 'D'
  | 'E'
  | 'F'
  | 'G'
  | 'H'
  | 'I'
  | 'J'
  | 'K'
  | 'L'
  | 'M'
  | 'N'
  | 'O'
  | 'P'
  | 'Q'
  | 'R'
  | 'S'
  | 'T'
  | 'U'
  | 'V'
  | 'W'
  | 'X'
  | 'Y'
  | 'Z'
  | '0'
  | '1'
  | '2'
  | '3'
  | '4'
  | '5'
  | '6'
  | '7'
  | '8'
  | '9'
  | '_';

/** `"id" | "group?"`: each parameter, with `?` marking optional ones. */
type ParamTokens<S extends string> = S extends `${infer _Before}:${infer After}`
  ? _Before extends `${string}\\`
    ? ParamTokens<After> // an escaped colon is literal text
    : NameOf<After> extends [infer Name, infer Rest]
      ? Name extends ''
        ? ParamTokens<Rest & string>
        : (Rest extends `?${string}` ? `${Name & string}?` : Name) | ParamTokens<Rest & string>
      : never
  : never;

type Required<T extends string> = T extends `${string}?` ? never : T;
type Optional<T extends string> = T extends `${infer Name}?` ? Name : never;

/** What a path parameter may be given as. */
export type PathParamValue = string | number;

/**
 * Whether `P` is a known path: a string literal (or a union of them), not `string` or a
 * template type such as `${string}:${string}`, whose parameters cannot be known.
 */
type IsKnownPath<P extends string> = {} extends Record<P, 1> ? false : true;

/** The object of URL parameters for a path, e.g. `{ group: string | number; id?: string | number }`. */
export type PathArgs<P extends string> =
  IsKnownPath<P> extends false
    ? Record<string, PathParamValue>
    : ParamTokens<P> extends never
      ? {}
      : Flatten<
          { [K in Required<ParamTokens<P>>]: PathParamValue } & {
            [K in Optional<ParamTokens<P>>]?: PathParamValue;
          }
        >;

type Flatten<T> = { [K in keyof T]: T[K] };
