// An app made the way a user makes one, in a folder outside this repository: this package packed
// by `npm pack`, a project from create-vite's template, `npm install` of both, and the app's own
// tools (its tsc, its Vite) run from its own node_modules.
import { execFile, spawn } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

/** A create-vite template, and the file whose component its main.tsx renders. */
export interface Template {
  name: 'react-ts' | 'preact-ts';
  label: string;
  appFile: string;
}

export const TEMPLATES: Template[] = [
  { name: 'react-ts', label: 'React', appFile: 'src/App.tsx' },
  { name: 'preact-ts', label: 'Preact (preact/compat)', appFile: 'src/app.tsx' },
];

/** The sources the test writes into the app: a resource and a component reading it. */
const OWN_APP = resolve('e2e/own-app');

/**
 * The environment of the app's tools: this one without NODE_ENV, which is the tools' own to set
 * (with `production`, npm would leave out the app's devDependencies, its tsc and Vite), and
 * without colours, as Vite's output is read.
 */
const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
delete env.NODE_ENV;

const execFileAsync = promisify(execFile);

/** Runs a command to its end; resolves with its output, or rejects with all it printed. */
export async function run(command: string, args: string[], cwd: string): Promise<string> {
  try {
    const { stdout } = await execFileAsync(command, args, { cwd, env, maxBuffer: 64 << 20 });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`\`${command} ${args.join(' ')}\` failed in ${cwd}:\n${stdout}\n${stderr}`);
  }
}

/** `npm pack` of this package into `dir` (its `prepack` builds the library); the tarball's path. */
export async function packRestLens(dir: string): Promise<string> {
  await run('npm', ['pack', '--pack-destination', dir], process.cwd());
  const { name, version } = JSON.parse(readFileSync('package.json', 'utf8'));
  return join(dir, `${name}-${version}.tgz`);
}

/**
 * Scaffolds `template` into `dir/<template>`, installs its dependencies and the RestLens
 * `tarball`, replaces its component with the own-app sources, and has its Vite proxy `/todos` to
 * the REST server at `api`; resolves with the app's folder.
 *
 * create-vite is this repository's pinned devDependency, run from node_modules: the template
 * needs no network. The app's own `npm install` does, as a user's does: `--prefer-offline` takes
 * what the npm cache holds (Vite, Rolldown, React: what `npm ci` of this repository cached)
 * without asking the registry again, and fetches the rest.
 */
export async function scaffoldApp(
  template: Template,
  dir: string,
  tarball: string,
  api: string,
): Promise<string> {
  const createVite = resolve('node_modules/create-vite/index.js');
  await run(
    process.execPath,
    [createVite, template.name, '--template', template.name, '--no-interactive'],
    dir,
  );
  const app = join(dir, template.name);
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], app);
  cpSync(join(OWN_APP, 'api.ts'), join(app, 'src/api.ts'));
  cpSync(join(OWN_APP, 'App.tsx'), join(app, template.appFile));
  const configFile = join(app, 'vite.config.ts');
  const config = readFileSync(configFile, 'utf8');
  const start = 'defineConfig({\n';
  if (!config.includes(start))
    throw new Error(`${configFile} has no \`${start.trim()}\`:\n${config}`);
  // `vite preview` takes the dev server's proxy as its own.
  const proxy = `  server: { proxy: { '/todos': '${api}' } },\n`;
  writeFileSync(configFile, config.replace(start, start + proxy));
  return app;
}

export interface Served {
  url: string;
  stop(): Promise<void>;
}

/**
 * The app served by its own Vite on a free port of 127.0.0.1: `dev` is what `npm run dev` runs,
 * `preview` what `npm run preview` runs (the production build in `dist/`).
 */
export async function serve(app: string, mode: 'dev' | 'preview'): Promise<Served> {
  const vite = join(app, 'node_modules/vite/bin/vite.js');
  const args = [
    vite,
    ...(mode === 'preview' ? ['preview'] : []),
    '--host',
    '127.0.0.1',
    '--port',
    '0',
  ];
  const child = spawn(process.execPath, args, { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const local = /Local:\s+(http:\/\/127\.0\.0\.1:\d+)\//.exec(output);
      if (local?.[1]) resolve(local[1]);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    exited.then(() => reject(new Error(`vite ${mode} stopped before serving:\n${output}`)));
  });
  return {
    url,
    stop: () => {
      child.kill();
      return exited;
    },
  };
}
