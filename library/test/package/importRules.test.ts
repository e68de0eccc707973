/**
 * The import rules of docs/architecture.md, checked from the sources: the arrows between the
 * library's folders point one way, and the extension takes from the library only the protocol.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { expect, it } from 'vitest';

/** A folder (or module) and what its modules must not import. */
interface Rule {
  from: string;
  forbidden: string[];
  /** Modules it may import all the same (see EXCEPTIONS). */
  except?: string[];
}

const RULES: Rule[] = [
  {
    from: 'library/src/schema/',
    forbidden: [
      'library/src/store/',
      'library/src/rest/',
      'library/src/react/',
      'library/src/devtools/',
    ],
  },
  {
    from: 'library/src/normalize/',
    forbidden: [
      'library/src/store/',
      'library/src/rest/',
      'library/src/react/',
      'library/src/devtools/',
    ],
  },
  {
    from: 'library/src/store/',
    forbidden: ['library/src/rest/', 'library/src/react/', 'library/src/devtools/'],
  },
  {
    from: 'library/src/devtools/protocol/',
    // The protocol's types are the library's (the change-set's, the actions'): it may name them.
    forbidden: ['library/src/devtools/page/', 'library/src/rest/', 'library/src/react/'],
  },
  {
    from: 'library/src/devtools/page/',
    forbidden: ['library/src/react/', 'library/src/rest/', 'library/src/endpoint/registry.ts'],
  },
  { from: 'library/src/', forbidden: ['extension/'] },
  {
    from: 'extension/src/',
    forbidden: ['library/'],
    // The panel keeps its copy of the page's tables in the library's persistent map, a data
    // structure that depends on nothing else of the library.
    except: ['extension/src/panel/tables.ts → library/src/normalize/persistentMap.ts'],
  },
];

/** What the extension may import of the library, beyond its exceptions. */
const EXTENSION_MAY_IMPORT = 'library/src/devtools/protocol/';

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file))
    .map((file) => join(folder, file));
}

/** The project files a module imports (relative specifiers, resolved from the project root). */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map(({ fileName }) => fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => relative('.', join(dirname(file), specifier)).replace(/\.js$/, '.ts'));
}

/** Every `file → import` that breaks a rule, and every exception no longer needed. */
function violations(rules: Rule[]): string[] {
  const found: string[] = [];
  for (const rule of rules) {
    const unused = new Set(rule.except);
    for (const file of sourceFiles(rule.from)) {
      for (const imported of importsOf(file)) {
        const arrow = `${file} → ${imported}`;
        const allowed = rule.from === 'extension/src/' && imported.startsWith(EXTENSION_MAY_IMPORT);
        if (allowed || !rule.forbidden.some((prefix) => imported.startsWith(prefix))) continue;
        if (rule.except?.includes(arrow)) unused.delete(arrow);
        else found.push(arrow);
      }
    }
    for (const arrow of unused) found.push(`${arrow} is no longer imported: drop its exception`);
  }
  return found;
}

it('keeps the arrows between folders pointing one way', () => {
  expect(violations(RULES)).toEqual([]);
});

it('names each import that breaks a rule, and each exception no longer needed', () => {
  const rules: Rule[] = [
    {
      from: 'library/src/rest/',
      forbidden: ['library/src/schema/'],
      except: ['library/src/rest/paths.ts → library/src/store/state.ts'],
    },
  ];
  expect(violations(rules)).toEqual(
    expect.arrayContaining([
      'library/src/rest/createResource.ts → library/src/schema/Collection.ts',
      'library/src/rest/paths.ts → library/src/store/state.ts is no longer imported: drop its exception',
    ]),
  );
});
