/**
 * `npm run bench -- --react [--quick]`: builds the benchmark page on both libraries and the plain
 * React page, runs every scenario on the three in one Chromium (interleaved, convergent sampling),
 * then the memory rounds on the two libraries; prints the table and the goals and writes
 * dist/bench/react.json.
 */
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { writeJson } from '../report.js';
import { buildPages, PAGES } from './build.js';
import { measureMemory } from './memory.js';
import { type BenchPage, launchBrowser, openPage } from './page.js';
import { servePages } from './pageServer.js';
import {
  formatReport,
  goalsOf,
  type ReactReport,
  type ScenarioResult,
  scenarioResult,
} from './report.js';
import { FULL, QUICK, sampleConvergent } from './sampling.js';
import { scenarios } from './scenarios.js';

const REPORT_PATH = 'dist/bench/react.json';
const MEMORY = { cycles: 20, fullRounds: 3, quickRounds: 1 };

export async function runReactBench(quick: boolean, log: (message: string) => void): Promise<void> {
  const started = Date.now();
  const options = quick ? QUICK : FULL;
  log('building the React pages (production, React 18.3)…');
  await buildPages();
  const server = await servePages();
  const { urls } = server;
  const browser = await launchBrowser();
  try {
    // In PAGES' order: restlens, data-client, plain React.
    const pages = await Promise.all(PAGES.map((name) => openPage(browser, name, urls[name])));
    for (const page of pages) await page.call('mount');
    const results: ScenarioResult[] = [];
    for (const scenario of scenarios) {
      log(`… ${scenario.name}`);
      for (const page of pages) await page.collectGarbage();
      const [ours, reference, plain] = await sampleConvergent(
        pages.map((page) => {
          let taken = 0;
          return () => scenario.sample(page, taken++);
        }),
        options,
      );
      const result = scenarioResult(scenario, ours ?? [], reference ?? [], plain ?? []);
      results.push(result);
      if (result.requestsDiffer) log(`WARNING ${scenario.name}: ${result.requestsDiffer}`);
      log(
        `  restlens ${result.ours.ms.toFixed(2)} ms, data-client ${result.reference.ms.toFixed(2)} ms, plain React ${result.plain.ms.toFixed(2)} ms`,
      );
    }
    const mismatch = await firstMismatch(pages);
    if (mismatch) log(`WARNING the pages show different text after the scenarios: ${mismatch}`);
    await Promise.all(pages.map((page) => page.close()));
    log(`… memory: ${MEMORY.cycles} mount/unmount cycles`);
    const rounds = quick ? MEMORY.quickRounds : MEMORY.fullRounds;
    const memory = await measureMemory(browser, urls, MEMORY.cycles, rounds);
    const report: ReactReport = {
      scenarios: results,
      ...(mismatch ? { mismatch } : {}),
      memory: { cycles: MEMORY.cycles, ours: memory.restlens, reference: memory['data-client'] },
      goals: goalsOf(results),
      environment: {
        chromium: browser.version(),
        react: packageVersion('react-18'),
        dataClientReact: packageVersion('@data-client/react'),
        cpu: cpus()[0]?.model ?? 'unknown',
        cores: cpus().length,
        quick,
        date: new Date().toISOString(),
        seconds: Math.round((Date.now() - started) / 1000),
      },
    };
    console.log(`\n${formatReport(report)}`);
    writeJson(REPORT_PATH, report);
    log(`\nwrote ${REPORT_PATH} (${report.environment.seconds} s)`);
  } finally {
    await browser.close();
    await server.close();
  }
}

/** Where a page's text first differs from the first page's (all ran the same actions), or undefined. */
async function firstMismatch(pages: readonly BenchPage[]): Promise<string | undefined> {
  const [first = '', ...others] = await Promise.all(pages.map((page) => page.call('shown')));
  for (const [index, other] of others.entries()) {
    if (other === first) continue;
    let at = 0;
    while (first[at] === other[at]) at++;
    const names = `${pages[0]?.library} and ${pages[index + 1]?.library}`;
    return `${names} at character ${at}: "${first.slice(at, at + 40)}" vs "${other.slice(at, at + 40)}"`;
  }
  return undefined;
}

function packageVersion(name: string): string {
  return JSON.parse(readFileSync(`node_modules/${name}/package.json`, 'utf8')).version;
}
