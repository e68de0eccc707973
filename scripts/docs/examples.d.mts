/** A code block of the docs marked as an example. */
export interface DocExample {
  /** The markdown file, e.g. `docs/guide.md`. */
  doc: string;
  /** The line of its opening fence. */
  line: number;
  extension: 'ts' | 'tsx';
  code: string;
  /** `<name>` of a block marked `run=<name>`: `npm test` runs it, checked by the check of that name. */
  run: string | undefined;
}

/** The examples of one markdown file, in order; throws on a misspelt marker. */
export function examplesOf(doc: string): DocExample[];

/** Every example of README.md and docs/*.md. */
export function docExamples(): DocExample[];
