// RestLens in a user's own app, made as users make one, in a folder outside this repository:
// create-vite's React + TypeScript template (and its Preact one), RestLens installed from the
// tarball `npm pack` makes, a resource read with useSuspense under a DataProvider
// (e2e/own-app). The app's own tsc and Vite check and build it, and with its Vite serving it in
// development, the RestLens panel shows its cache. Its `/todos` are the demo server's (reset
// before each test: user 1's first page is todos 1, 3 and 5, and the next todo created is 9).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures.js';
import { latestChange, members, pksOf, status, USER_1 } from './lens.js';
import { packRestLens, run, scaffoldApp, serve, TEMPLATES } from './scaffold.js';

const PAGE_1 = ['Read the spec', 'Write the resource', 'Push a todo'];

let workspace: string;
let tarball: string;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  workspace = mkdtempSync(join(tmpdir(), 'restlens-own-app-'));
  tarball = await packRestLens(workspace);
});

test.afterAll(() => {
  rmSync(workspace, { recursive: true, force: true });
});

test.beforeEach(async ({ demo }) => {
  await fetch(`${demo.url}/control/reset`, { method: 'POST' });
});

for (const template of TEMPLATES) {
  test.describe(`a ${template.label} app made with create-vite`, () => {
    let app: string;

    test.beforeAll(async ({ demo }) => {
      test.setTimeout(180_000);
      app = await scaffoldApp(template, workspace, tarball, demo.url);
    });

    test('its own tsc and Vite check and build it; the production build runs without the devtools', async ({
      extensionContext,
    }) => {
      // The template's `build`: `tsc -b && vite build`.
      await run('npm', ['run', 'build'], app);
      const assets = join(app, 'dist/assets');
      const bundle = readdirSync(assets)
        .filter((file) => file.endsWith('.js'))
        .map((file) => readFileSync(join(assets, file), 'utf8'))
        .join('\n');
      // The devtools' message tag: in every build with the devtools (a development build of this
      // app has it), in none without them.
      expect(bundle).not.toMatch(/["'`]restlens["'`]/);

      const server = await serve(app, 'preview');
      const page = await extensionContext.newPage();
      try {
        await page.goto(server.url);
        await expect(page.getByRole('listitem')).toHaveText(PAGE_1);
      } finally {
        await page.close();
        await server.stop();
      }
    });

    test('in development, the RestLens panel shows its collection and what a push did', async ({
      extensionContext,
      openPanel,
    }) => {
      const server = await serve(app, 'dev');
      const page = await extensionContext.newPage();
      try {
        await page.goto(server.url);
        await expect(page.getByRole('listitem')).toHaveText(PAGE_1);
        const panel = await openPanel(page);
        await expect(status(panel)).toHaveText('Connected');
        await expect.poll(() => pksOf(members(panel, USER_1))).toEqual(['1', '3', '5']);

        await page.getByRole('button', { name: 'Add a todo' }).click();
        await expect(page.getByRole('listitem')).toHaveText([...PAGE_1, 'Try RestLens']);
        await expect(latestChange(panel)).toContainText(
          /pushed Todo 9 "[^"]*" at the end \(3 → 4\)/,
        );
        await expect.poll(() => pksOf(members(panel, USER_1))).toEqual(['1', '3', '5', '9']);
      } finally {
        await page.close();
        await server.stop();
      }
    });
  });
}
