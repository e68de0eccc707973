/**
 * `npm run bench -- --scale [--quick]`: the scale benchmark. In Chromium with the built extension,
 * two pages each hold a store of N todos (uuid pks) in 1,000 lists (one of 10,000 members) and
 * then 50,000 more events in a ring of 50,000; the panel (opened as a page, as the e2e tests do)
 * connects to one of them. Measured: the time until the panel lists the collections, the page's
 * longest task while it answers, the snapshot's size, the panel's interactions, bursts of 5,000
 * writes meant to take one second on both pages in turn (the page's main-thread CPU time with the
 * panel over the one without), 5,000 writes to a small table, and the panel's heap. For N of 10k
 * and 100k (`--quick`: 10k, and 5,000 events). Then the mixed writes at app scale (mixed.ts; alone
 * with `--mixed`).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type BrowserContext, chromium, type Page } from '@playwright/test';
import { build } from 'esbuild';
import { CHROMIUM_ARGS } from '../../../e2e/tests/browser.js';
import { findBrowser } from '../../browsers.mjs';
import { writeJson } from '../report.js';
import { median } from '../stats.js';
import { formatMixedReport, measureMixed } from './mixed.js';
import { call, mainThreadMs, ms, openPage, panelUrl } from './pages.js';
import { measurePanel, type PanelTimings } from './panel.js';
import type { PageWatch } from './protocol.js';

const OUT_DIR = 'dist/bench/scale';
const REPORT_PATH = 'dist/bench/scale.json';
const FULL = { sizes: [10_000, 100_000], events: 50_000, rounds: 5 };
const QUICK = { sizes: [10_000], events: 5_000, rounds: 2 };
const BURST = { writes: 5_000, spreadMs: 1_000 };

export interface SizeResult {
  size: number;
  events: number;
  seedMs: number;
  /** From opening the panel to its first collection row shown. */
  collectionsListedMs: number;
  /** From opening the panel until the page had posted its whole answer. */
  answeredMs: number;
  connect: PageWatch;
  panel: PanelTimings;
  /** Wall time of each burst with no panel (ms; meant to take BURST.spreadMs). */
  burstNoPanelMs: number[];
  /** The page's main-thread CPU time of each burst, with no panel and with the panel (ms). */
  burstCpuNoPanelMs: number[];
  burstCpuPanelMs: number[];
  /** Median of the rounds' ratios, less one: 0.2 is 20% more with the panel. */
  panelBurstCost: number;
  smallWritesMs: number;
  panelHeapBytes: number;
}

export interface ScaleOptions {
  /** 10k todos only, fewer events and rounds; the mixed writes at 10k in 100 lists. */
  quick: boolean;
  /** Only the mixed writes (mixed.ts). */
  mixedOnly: boolean;
  /**
   * A CPU profile of one more round of mixed writes on each page, saved beside the page and
   * summarized (the page is then built with its names kept: unminified).
   */
  cpuProfile: boolean;
}

export async function runScaleBench(
  { quick, mixedOnly, cpuProfile }: ScaleOptions,
  log: (message: string) => void,
) {
  const started = Date.now();
  const plan = quick ? QUICK : FULL;
  log('building the extension and the scale page…');
  // In a process of its own: the bench is one bundle, where the script's "run as main" test
  // would hold for every module in it.
  const built = spawnSync(process.execPath, ['scripts/build-extension.mjs'], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('the extension did not build');
  await buildPage(!cpuProfile);
  const server = await serve(resolve(OUT_DIR));
  const profile = mkdtempSync(join(tmpdir(), 'restlens-scale-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: findBrowser('chromium'),
    headless: true,
    // Pages behind others keep their timers: a burst runs while the panel's tab is in front.
    args: [
      ...CHROMIUM_ARGS,
      '--disable-background-timer-throttling',
      '--disable-renderer-backgrounding',
      '--disable-backgrounding-occluded-windows',
    ],
  });
  try {
    const results: SizeResult[] = [];
    for (const size of mixedOnly ? [] : plan.sizes) {
      log(`… ${size} todos, ${plan.events} events`);
      results.push(await measureSize(context, server.url, size, plan.events, plan.rounds, log));
    }
    const mixed = await measureMixed(
      context,
      server.url,
      quick,
      cpuProfile ? resolve(OUT_DIR, 'mixed') : undefined,
      log,
    );
    const report = {
      results,
      mixed,
      environment: {
        chromium: context.browser()?.version() ?? 'unknown',
        quick,
        date: new Date().toISOString(),
        seconds: Math.round((Date.now() - started) / 1000),
      },
    };
    if (results.length > 0) console.log(`\n${formatScaleReport(results)}`);
    console.log(`\n${formatMixedReport(mixed)}`);
    writeJson(REPORT_PATH, report);
    log(`\nwrote ${REPORT_PATH} (${report.environment.seconds} s)`);
  } finally {
    await context.close();
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

async function buildPage(minify: boolean) {
  mkdirSync(OUT_DIR, { recursive: true });
  await build({
    entryPoints: [resolve('scripts/bench/scale/app.ts')],
    outfile: resolve(OUT_DIR, 'app.js'),
    bundle: true,
    format: 'iife',
    target: 'es2022',
    minify,
    logLevel: 'warning',
  });
  writeFileSync(
    resolve(OUT_DIR, 'index.html'),
    '<!doctype html>\n<meta charset="utf-8">\n<title>scale</title>\n<script src="app.js"></script>\n',
  );
}

/** Serves the page over http (the content script runs on http pages, not file ones). */
function serve(dir: string): Promise<{ url: string; close: () => void }> {
  const server: Server = createServer((request, response) => {
    const file = request.url?.startsWith('/app.js') ? 'app.js' : 'index.html';
    response.setHeader('content-type', file.endsWith('.js') ? 'text/javascript' : 'text/html');
    response.end(readFileSync(join(dir, file)));
  });
  return new Promise((done) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      done({ url: `http://127.0.0.1:${port}/`, close: () => server.close() });
    }),
  );
}

async function measureSize(
  context: BrowserContext,
  url: string,
  size: number,
  events: number,
  rounds: number,
  log: (message: string) => void,
): Promise<SizeResult> {
  const withPanel = await openPage(context, url);
  const withoutPanel = await openPage(context, url);
  let seedMs = 0;
  for (const page of [withPanel, withoutPanel]) {
    seedMs = await call(page, 'seed', size, events);
    await call(page, 'updates', events);
  }
  log(`  seeded in ${Math.round(seedMs)} ms; opening the panel`);
  await call(withPanel, 'watch');
  const address = await panelUrl(context, withPanel);
  const panel = await context.newPage();
  const opened = performance.now();
  await panel.goto(address);
  await panel.locator('#collection-rows [role=option]').first().waitFor({ timeout: 300_000 });
  const collectionsListedMs = performance.now() - opened;
  let connect = await call(withPanel, 'watched');
  while (connect.quietMs < 1000 || !connect.posted.events) {
    await new Promise((done) => setTimeout(done, 200));
    connect = await call(withPanel, 'watched');
  }
  const answeredMs = performance.now() - opened - connect.quietMs;
  log(`  collections listed after ${Math.round(collectionsListedMs)} ms; panel interactions`);
  const panelTimings = await measurePanel(panel, await call(withPanel, 'somePk'));
  // The panel shows a collection of 10k members while the bursts run (it asks for the rows it shows).
  log('  bursts');
  const cpu = new Map<Page, () => Promise<number>>();
  for (const page of [withPanel, withoutPanel]) cpu.set(page, await mainThreadMs(context, page));
  const burstNoPanelMs: number[] = [];
  const burstCpuNoPanelMs: number[] = [];
  const burstCpuPanelMs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? [withoutPanel, withPanel] : [withPanel, withoutPanel];
    for (const page of order) {
      await page.bringToFront();
      const read = cpu.get(page) as () => Promise<number>;
      const before = await read();
      const wall = await call(page, 'burst', BURST.writes, BURST.spreadMs);
      const spent = (await read()) - before;
      if (page === withPanel) burstCpuPanelMs.push(spent);
      else {
        burstCpuNoPanelMs.push(spent);
        burstNoPanelMs.push(wall);
      }
    }
  }
  const panelBurstCost =
    median(burstCpuPanelMs.map((spent, round) => spent / (burstCpuNoPanelMs[round] as number))) - 1;
  const smallWritesMs = await call(withoutPanel, 'smallWrites', BURST.writes);
  const panelCdp = await context.newCDPSession(panel);
  await panelCdp.send('HeapProfiler.collectGarbage');
  const { usedSize: panelHeapBytes } = await panelCdp.send('Runtime.getHeapUsage');
  for (const page of [panel, withPanel, withoutPanel]) await page.close();
  return {
    size,
    events,
    seedMs,
    collectionsListedMs,
    answeredMs,
    connect,
    panel: panelTimings,
    burstNoPanelMs,
    burstCpuNoPanelMs,
    burstCpuPanelMs,
    panelBurstCost,
    smallWritesMs,
    panelHeapBytes,
  };
}

/** The scale table, one column per store size. */
export function formatScaleReport(results: readonly SizeResult[]): string {
  const row = (label: string, cell: (result: SizeResult) => string, goal: string) =>
    `| ${label} | ${results.map(cell).join(' | ')} | ${goal} |`;
  const slowest = (result: SizeResult) =>
    Math.max(
      ...Object.entries(result.panel.interactions)
        .filter(([name]) => !name.startsWith('Entities filter, first'))
        .map(([, value]) => value),
    );
  return [
    `| | ${results.map((result) => `${result.size / 1000}k uuid`).join(' | ')} | goal |`,
    `|---|${results.map(() => '--:|').join('')}--:|`,
    row('open the panel → collections listed', (r) => ms(r.collectionsListedMs), '≤ 1 s'),
    row(
      `the page's longest task answering \`connect\` (${results[0]?.events ?? 0} events in the ring)`,
      (r) => (r.connect.longestTaskMs === 0 ? '< 50 ms' : ms(r.connect.longestTaskMs)),
      '≤ 50 ms per task',
    ),
    row('the whole answer posted (snapshot + history)', (r) => ms(r.answeredMs), ''),
    row(
      'snapshot sent on connect',
      (r) => `${(r.connect.snapshotChars / 1e6).toFixed(2)} M chars`,
      'what the views need first',
    ),
    row(
      'its lists, sent after it (members, pks)',
      (r) => `${(r.connect.listChars / 1e6).toFixed(2)} M chars`,
      '',
    ),
    row(
      `${BURST.writes.toLocaleString('en')} writes (target 1 s), no panel`,
      (r) => ms(median(r.burstNoPanelMs)),
      '≤ 1 s',
    ),
    row(
      'same burst, panel open: page main-thread CPU time over no panel',
      (r) =>
        `${r.panelBurstCost >= 0 ? '+' : ''}${(100 * r.panelBurstCost).toFixed(0)}% (${ms(median(r.burstCpuNoPanelMs))} → ${ms(median(r.burstCpuPanelMs))})`,
      '≤ +25%',
    ),
    row(
      `${BURST.writes.toLocaleString('en')} writes to a small table, big one loaded, no panel`,
      (r) => ms(r.smallWritesMs),
      '≤ 0.5 s',
    ),
    row(
      'panel: slowest interaction (view switch, filter, scroll, lookup)',
      (r) => ms(slowest(r)),
      '≤ 100 ms',
    ),
    row(
      'Entities filter while rows are missing, first keystroke',
      (r) => ms(r.panel.interactions['Entities filter, first keystroke (rows missing)'] ?? 0),
      '≤ 100 ms',
    ),
    row(
      "panel's longest task while the filter loads every row",
      (r) =>
        `${r.panel.longestTaskWhileLoadingMs === 0 ? '< 50 ms' : ms(r.panel.longestTaskWhileLoadingMs)} (rows in ${ms(r.panel.rowsLoadedMs)})`,
      '',
    ),
    row('panel heap at the end', (r) => `${Math.round(r.panelHeapBytes / 1e6)} MB`, '≤ 300 MB'),
    '',
    'Panel interactions (ms):',
    ...Object.keys(results[0]?.panel.interactions ?? {}).map(
      (name) =>
        `  ${name}: ${results.map((r) => Math.round(r.panel.interactions[name] ?? 0)).join(' / ')}`,
    ),
  ].join('\n');
}
