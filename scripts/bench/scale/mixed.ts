/**
 * The scale suite's mixed writes at app scale: 1,000 writes (40% push, 40% update, 20% delete),
 * back to back in one task, into a store shaped like an app's (`seedApp`: 100k todos in 1,000
 * lists of one resource; `--quick`: 10k in 100), with the devtools bridge connected as
 * `DataProvider` connects it. Two pages seeded alike, the panel open for one; rounds alternate
 * which writes first. Measured: the writes' wall time on each page, the time from the last write
 * until the panel shows its event, and each page's main-thread CPU time until the devtools are
 * done with the writes. `--cpu-profile` adds a round profiled on each page.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { BrowserContext, CDPSession, Page } from '@playwright/test';
import { median, pairedSlowdown } from '../stats.js';
import { call, mainThreadMs, ms, openPage, panelUrl } from './pages.js';
import { eventShownAt, lastEventShown, runStep, watchForEvent } from './panel.js';

export const MIXED_WRITES = 1_000;
export const MIXED_PLAN = {
  full: { todos: 100_000, lists: 1_000, rounds: 5 },
  quick: { todos: 10_000, lists: 100, rounds: 2 },
};
/** The goals, with the panel open. */
export const MIXED_GOALS = { panelWallMs: 1_000, shownMs: 100 };
/** How long the panel may take to show a round's last event before the round fails (ms). */
const SHOW_TIMEOUT_MS = 300_000;

export interface MixedRound {
  /** Which page wrote first. */
  first: 'no panel' | 'panel';
  noPanel: { wallMs: number; cpuMs: number };
  /**
   * `shownMs`: from the last write's end until the panel showed its event; `postedMs`: until the
   * page posted the message that carries it (the page's part of `shownMs`).
   */
  panel: { wallMs: number; cpuMs: number; shownMs: number; postedMs: number };
}

export interface ProfileSummary {
  /** Sampled ms in all (idle left out). */
  totalMs: number;
  /** The functions with the most samples of their own (ms), most first. */
  self: { name: string; ms: number }[];
  /** The functions with the most samples in them or in what they called (ms), most first. */
  inclusive: { name: string; ms: number }[];
}

export interface MixedResult {
  todos: number;
  lists: number;
  writes: number;
  mix: { pushes: number; updates: number; deletes: number };
  /** How the writes run: back to back, in one task. */
  schedule: 'back to back in one task';
  seedMs: number;
  /** The first round of each page, dropped from the medians (the code is not compiled yet). */
  warmup: MixedRound;
  rounds: MixedRound[];
  median: {
    noPanelWallMs: number;
    panelWallMs: number;
    shownMs: number;
    postedMs: number;
    noPanelCpuMs: number;
    panelCpuMs: number;
    /** Median of the rounds' ratios of CPU time with the panel over without, less one. */
    panelCpuCost: number;
  };
  goals: {
    panelWallMs: { atMost: number; met: boolean };
    shownMs: { atMost: number; met: boolean };
  };
  /**
   * The panel's clock less the page's, read between two readings of the page's `roundTripMs`
   * apart (so within half of that): both are `performance.timeOrigin + now()`, one clock.
   */
  clock: { skewMs: number; roundTripMs: number };
  /**
   * Where the time went in one more round on each page (`--cpu-profile`): the page without the
   * panel, the page with it, and the panel's own page in that round.
   */
  profiles?: { noPanel: ProfileSummary; panel: ProfileSummary; panelPage: ProfileSummary };
  /** Set when a round's last event was not the panel's newest (its seq was counted wrong). */
  warnings: string[];
}

export async function measureMixed(
  context: BrowserContext,
  url: string,
  quick: boolean,
  cpuProfile: string | undefined,
  log: (message: string) => void,
): Promise<MixedResult> {
  const { todos, lists, rounds } = MIXED_PLAN[quick ? 'quick' : 'full'];
  log(`… mixed writes: ${todos} todos in ${lists} lists`);
  const noPanel = await openPage(context, url);
  const withPanel = await openPage(context, url);
  let seedMs = 0;
  let seeded = 0;
  for (const page of [noPanel, withPanel])
    ({ ms: seedMs, lastSeq: seeded } = await call(page, 'seedApp', todos, lists));
  log(`  seeded in ${Math.round(seedMs)} ms; opening the panel on its Timeline`);
  const panel = await context.newPage();
  await panel.goto(await panelUrl(context, withPanel));
  await panel.locator('[role=tab]', { hasText: 'Timeline' }).waitFor({ timeout: SHOW_TIMEOUT_MS });
  await runStep(panel, { kind: 'tab', label: 'Timeline' });
  await watchForEvent(panel, seeded, SHOW_TIMEOUT_MS);
  await eventShownAt(panel);
  await call(withPanel, 'settle');
  const clock = await readClock(withPanel, panel);

  const cpu = new Map<Page, () => Promise<number>>();
  for (const page of [noPanel, withPanel]) cpu.set(page, await mainThreadMs(context, page));
  const warnings: string[] = [];
  let mix = { pushes: 0, updates: 0, deletes: 0 };
  /** One round on `page`: its wall time, CPU time and, with the panel, when it showed the last. */
  const writeOn = async (page: Page, seed: number, profilers: CDPSession[] = []) => {
    const { lastSeq, ...counts } = await call(page, 'planMixed', MIXED_WRITES, seed);
    mix = counts;
    await page.bringToFront();
    if (page === withPanel) await watchForEvent(panel, lastSeq, SHOW_TIMEOUT_MS);
    const read = cpu.get(page) as () => Promise<number>;
    for (const profiler of profilers) await profiler.send('Profiler.start');
    const before = await read();
    const writes = await call(page, 'mixedWrites');
    const shownMs = page === withPanel ? (await eventShownAt(panel)) - writes.endedAt : 0;
    const { eventsPostedAt } = await call(page, 'settle');
    const cpuMs = (await read()) - before;
    const postedMs = eventsPostedAt === undefined ? Number.NaN : eventsPostedAt - writes.endedAt;
    const profiles: CpuProfile[] = [];
    for (const profiler of profilers) profiles.push((await profiler.send('Profiler.stop')).profile);
    if (page === withPanel) {
      const newest = await lastEventShown(panel);
      if (newest !== lastSeq)
        warnings.push(`the panel's newest event is ${newest}, the writes' last ${lastSeq}`);
    }
    return { wallMs: writes.wallMs, cpuMs, shownMs, postedMs, profiles };
  };
  const round = async (index: number): Promise<MixedRound> => {
    const first = index % 2 === 0 ? 'no panel' : 'panel';
    const order = first === 'no panel' ? [noPanel, withPanel] : [withPanel, noPanel];
    const result: Partial<MixedRound> = { first };
    for (const page of order) {
      const { wallMs, cpuMs, shownMs, postedMs } = await writeOn(page, index + 1);
      if (page === withPanel) result.panel = { wallMs, cpuMs, shownMs, postedMs };
      else result.noPanel = { wallMs, cpuMs };
    }
    return result as MixedRound;
  };

  log(`  ${MIXED_WRITES} writes a round: a warm-up round and ${rounds} measured`);
  const warmup = await round(0);
  const measured: MixedRound[] = [];
  for (let index = 1; index <= rounds; index++) {
    measured.push(await round(index));
    const last = measured.at(-1) as MixedRound;
    log(
      `  round ${index}: no panel ${Math.round(last.noPanel.wallMs)} ms, panel ${Math.round(last.panel.wallMs)} ms, posted after ${Math.round(last.panel.postedMs)} ms, shown after ${Math.round(last.panel.shownMs)} ms`,
    );
  }

  let profiles: MixedResult['profiles'];
  if (cpuProfile) {
    log('  one more round on each page, profiled');
    const summaries: ProfileSummary[] = [];
    const fileOf = bundleFiles();
    for (const [pages, names] of [
      [[noPanel], ['no-panel']],
      [
        [withPanel, panel],
        ['panel', 'panel-page'],
      ],
    ] as const) {
      const profilers: CDPSession[] = [];
      for (const page of pages) {
        const profiler = await context.newCDPSession(page);
        await profiler.send('Profiler.enable');
        await profiler.send('Profiler.setSamplingInterval', { interval: 250 });
        profilers.push(profiler);
      }
      const written = await writeOn(pages[0], rounds + 2, profilers);
      for (const [index, profile] of written.profiles.entries()) {
        const path = `${cpuProfile}-${names[index]}.cpuprofile`;
        writeFileSync(path, JSON.stringify(profile));
        log(`  wrote ${path}`);
        summaries.push(summarizeProfile(profile, fileOf));
      }
      for (const profiler of profilers) await profiler.detach();
    }
    const [noPanelProfile, panelProfile, panelPageProfile] = summaries as [
      ProfileSummary,
      ProfileSummary,
      ProfileSummary,
    ];
    profiles = { noPanel: noPanelProfile, panel: panelProfile, panelPage: panelPageProfile };
  }
  for (const page of [panel, noPanel, withPanel]) await page.close();

  const of = (pick: (round: MixedRound) => number) => median(measured.map(pick));
  const result: MixedResult['median'] = {
    noPanelWallMs: of((r) => r.noPanel.wallMs),
    panelWallMs: of((r) => r.panel.wallMs),
    shownMs: of((r) => r.panel.shownMs),
    postedMs: of((r) => r.panel.postedMs),
    noPanelCpuMs: of((r) => r.noPanel.cpuMs),
    panelCpuMs: of((r) => r.panel.cpuMs),
    panelCpuCost: pairedSlowdown(
      measured.map((r) => r.panel.cpuMs),
      measured.map((r) => r.noPanel.cpuMs),
    ),
  };
  return {
    todos,
    lists,
    writes: MIXED_WRITES,
    mix,
    schedule: 'back to back in one task',
    seedMs,
    warmup,
    rounds: measured,
    median: result,
    goals: {
      panelWallMs: {
        atMost: MIXED_GOALS.panelWallMs,
        met: result.panelWallMs <= MIXED_GOALS.panelWallMs,
      },
      shownMs: { atMost: MIXED_GOALS.shownMs, met: result.shownMs <= MIXED_GOALS.shownMs },
    },
    clock,
    ...(profiles ? { profiles } : {}),
    warnings,
  };
}

/**
 * The panel's clock against the page's: read between two readings of the page's, the reading of
 * the shortest round trip of five (its skew is known to within half of it).
 */
async function readClock(page: Page, panel: Page) {
  const readings: { skewMs: number; roundTripMs: number }[] = [];
  for (let reading = 0; reading < 5; reading++) {
    const before = await call(page, 'now');
    const panelNow = await panel.evaluate(() => performance.timeOrigin + performance.now());
    const after = await call(page, 'now');
    readings.push({ skewMs: panelNow - (before + after) / 2, roundTripMs: after - before });
  }
  return readings.reduce((best, next) => (next.roundTripMs < best.roundTripMs ? next : best));
}

/** The parts of a CPU profile (the DevTools protocol's `Profiler.Profile`) read here. */
interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }[];
  samples?: number[];
  timeDeltas?: number[];
}

/**
 * The source file of a line of the page's or the extension's bundle (built unminified, esbuild
 * heads each module's code with a `// path` comment): a profile names bundle lines.
 */
function bundleFiles(): (url: string, line: number) => string | undefined {
  const bundles = new Map<string, { line: number; file: string }[]>();
  const headsOf = (name: string) => {
    let heads = bundles.get(name);
    if (heads) return heads;
    const path = [resolve('dist/bench/scale', name), resolve('dist/extension/chrome', name)].find(
      existsSync,
    );
    heads = [];
    if (path)
      readFileSync(path, 'utf8')
        .split('\n')
        .forEach((text, line) => {
          const head = /^\s*\/\/ (\S+\.[cm]?[jt]sx?)$/.exec(text);
          if (head)
            heads?.push({ line, file: (head[1] as string).replace(/^(\.\.\/)+main\//, '') });
        });
    bundles.set(name, heads);
    return heads;
  };
  return (url, line) => {
    const name = url.slice(url.lastIndexOf('/') + 1);
    if (!/^(app|panel|content)\.js$/.test(name)) return undefined;
    return headsOf(name).findLast((head) => head.line <= line)?.file;
  };
}

/** Sampled time by function, its own and with what it called (each function once a stack). */
export function summarizeProfile(
  profile: CpuProfile,
  fileOf: (url: string, line: number) => string | undefined = () => undefined,
  top = 15,
): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const nameOf = (id: number) => {
    const { functionName, url, lineNumber } = (byId.get(id) as CpuProfile['nodes'][number])
      .callFrame;
    if (!url) return functionName || '(anonymous)';
    const file =
      fileOf(url, lineNumber) ?? `${url.slice(url.lastIndexOf('/') + 1)}:${lineNumber + 1}`;
    return `${functionName || '(anonymous)'} (${file})`;
  };
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let totalMs = 0;
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  samples.forEach((leaf, index) => {
    // A sample's time is the gap to the next one.
    const time = (deltas[index + 1] ?? 0) / 1000;
    const leafName = nameOf(leaf);
    if (leafName === '(idle)') return;
    totalMs += time;
    self.set(leafName, (self.get(leafName) ?? 0) + time);
    const seen = new Set<string>();
    for (let id: number | undefined = leaf; id !== undefined; id = parent.get(id)) {
      // Callers without a script (the root, the runner's evaluate) hold every sample: left out.
      if (id !== leaf && !byId.get(id)?.callFrame.url) continue;
      const name = nameOf(id);
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + time);
    }
  });
  const topOf = (times: Map<string, number>) =>
    [...times]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, ms]) => ({ name, ms: Math.round(ms) }));
  return { totalMs: Math.round(totalMs), self: topOf(self), inclusive: topOf(inclusive) };
}

const range = (values: readonly number[]) =>
  `${ms(Math.min(...values))}–${ms(Math.max(...values))}`;

/** The mixed writes' table: medians over the rounds (their range), goals and whether met. */
export function formatMixedReport(result: MixedResult): string {
  const { median: m, rounds, goals } = result;
  const met = (goal: { met: boolean }) => (goal.met ? 'met' : 'NOT met');
  const row = (label: string, value: string, goal = '', status = '') =>
    `| ${label} | ${value} | ${goal} | ${status} |`;
  const column = `${result.todos / 1000}k todos / ${result.lists.toLocaleString('en')} lists`;
  const lines = [
    `${result.writes.toLocaleString('en')} mixed writes (${result.mix.pushes} push, ${result.mix.updates} partialUpdate, ${result.mix.deletes} delete), ${result.schedule}; medians of ${rounds.length} rounds (range)`,
    '',
    `| | ${column} | goal | |`,
    '|---|--:|--:|---|',
    row(
      "the writes' wall time, no panel",
      `${ms(m.noPanelWallMs)} (${range(rounds.map((r) => r.noPanel.wallMs))})`,
    ),
    row(
      "the writes' wall time, panel open",
      `${ms(m.panelWallMs)} (${range(rounds.map((r) => r.panel.wallMs))})`,
      `≤ ${ms(goals.panelWallMs.atMost)}`,
      met(goals.panelWallMs),
    ),
    row(
      'last write → the panel shows it (its Timeline row, painted)',
      `${ms(m.shownMs)} (${range(rounds.map((r) => r.panel.shownMs))})`,
      `≤ ${ms(goals.shownMs.atMost)}`,
      met(goals.shownMs),
    ),
    row(
      '  of which until the page posted it',
      `${ms(m.postedMs)} (${range(rounds.map((r) => r.panel.postedMs))})`,
    ),
    row(
      'page main-thread CPU time until done, no panel',
      `${ms(m.noPanelCpuMs)} (${range(rounds.map((r) => r.noPanel.cpuMs))})`,
    ),
    row(
      'page main-thread CPU time until done, panel open',
      `${ms(m.panelCpuMs)} (${range(rounds.map((r) => r.panel.cpuMs))}), ${m.panelCpuCost >= 0 ? '+' : ''}${(100 * m.panelCpuCost).toFixed(0)}%`,
    ),
  ];
  for (const warning of result.warnings) lines.push(`WARNING ${warning}`);
  if (result.profiles) {
    for (const [label, profile] of [
      ['no panel', result.profiles.noPanel],
      ['panel open', result.profiles.panel],
      ["the panel's own page, that round", result.profiles.panelPage],
    ] as const) {
      lines.push(
        '',
        `CPU profile of one round, ${label}: ${ms(profile.totalMs)} sampled; with callees (ms):`,
      );
      for (const { name, ms: time } of profile.inclusive) lines.push(`  ${time}  ${name}`);
      lines.push('  own time (ms):');
      for (const { name, ms: time } of profile.self) lines.push(`  ${time}  ${name}`);
    }
  }
  return lines.join('\n');
}
