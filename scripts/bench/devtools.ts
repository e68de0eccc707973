/**
 * The devtools' cost on the core store workloads of the main suite: each runs on a plain store,
 * on a store with the devtools bridge and no panel (goal: at most 1.5× the plain store's time on
 * every workload), and with a connected panel stand-in (reported; the panel's goal is taken where
 * users meet it, in Chromium: scale/mixed.ts); samples interleaved, cost = median of the per-round ratios, with a 95%
 * bootstrap interval for the no-panel cost, which takes three times the rounds
 * (NO_PANEL_SAMPLING), in three processes (NO_PANEL_PROCESSES), next to an A/A control (a second
 * plain store in the same rounds) that shows what it reads for no difference and to stores that
 * only keep what the ring must (keepingOnly), the least a bridge can cost; beside the panel's cost,
 * what relaying its events alone costs (relayFloor), the least a live panel can cost. The stand-in does in
 * the timed part what runs on the page's thread: the bridge's work and the content script's (check
 * each message, receive its structured clone, serialize it for the extension's port). The panel's
 * part runs in the DevTools process: it parses every event and checks that no `seq` is missing,
 * untimed. Then events per second through the bridge to that panel, the panel's parsing included
 * (goal ≥ 10,000/s), and the heap the bridge keeps per change with no panel (its ring holds each
 * change's action, change-set and state), in a 10k and a 100k store (goal ≤ 4 KB at 100k).
 */
import { spawnSync } from 'node:child_process';
import { connectDevtools, type DevtoolsConnection } from '../../library/src/devtools/index.js';
import { DEFAULT_RING_SIZE, DEFAULT_STATES_KEPT } from '../../library/src/devtools/page/bridge.js';
import {
  type EventsMessage,
  extensionCommand,
} from '../../library/src/devtools/protocol/messages.js';
import { isPageMessage, parseEvents } from '../../library/src/devtools/protocol/validate.js';
import { createStore, Endpoint, Entity, type Store } from '../../library/src/index.js';
import { oursWith } from './contenders/ours.js';
import type { Contender } from './contenders/types.js';
import { COLLECTION_SIZE, makeTodos } from './data.js';
import { keepAsTheRingDoes } from './keptRing.js';
import { BenchWindow, pageWithoutPanel } from './pageWindow.js';
import {
  type Measurement,
  measureInterleaved,
  pooled,
  type SamplerOptions,
  type Side,
} from './sampler.js';
import { median, pairedRatios, pairedSlowdown, slowdownInterval } from './stats.js';
import type { Workload } from './workloads.js';

/**
 * Stands in for the extension: on the page's thread, the content script's part (checks each
 * message, receives its clone, serializes it for the port as Chrome's runtime messaging does);
 * `read` is the panel's part (parses the events, checks every seq).
 */
class PanelStandIn {
  constructor(
    readonly window: BenchWindow,
    /** The seq it connects at (it holds the state up to it). */
    public lastSeq = 0,
  ) {
    // The store greeted when it connected: what it says after comes on the port it handed over.
    const port = window.greetingPort;
    if (port === undefined) throw new Error('the store greeted with no port');
    port.addEventListener('message', (event) => {
      if (!isPageMessage(event.data)) return;
      this.unread.push(JSON.stringify(structuredClone(event.data)));
    });
  }

  gaps = 0;
  /** What crossed the port and the panel has not read yet. */
  private unread: string[] = [];
  /** Takes the live events messages that crossed the port since the last read, unread. */
  take(): EventsMessage[] {
    return this.unread
      .splice(0)
      .map((text): unknown => JSON.parse(text))
      .filter(
        (message): message is EventsMessage =>
          isPageMessage(message) && message.kind === 'events' && !message.history,
      );
  }
  read(): void {
    for (const message of this.take()) {
      const events = parseEvents(message);
      if (!events) throw new Error('the bridge posted events the panel cannot read');
      for (const { seq } of events) {
        if (seq !== this.lastSeq + 1) this.gaps++;
        this.lastSeq = seq;
      }
    }
  }
  connect(): void {
    this.window.postMessage(extensionCommand({ kind: 'connect', lastSeq: this.lastSeq }));
  }
}

/** A change the panel's stores make before their stand-in connects (see bridged). */
const panelConnected = new Endpoint(async () => undefined, {
  name: 'bench.panelConnected',
  key: () => 'bench panel connected',
});

/** Connects the bridge (and optionally a panel) to each store a workload creates. */
function bridged(name: string, withPanel: boolean) {
  const pending: DevtoolsConnection[] = [];
  const panels: PanelStandIn[] = [];
  let gaps = 0;
  const contender = oursWith(name, (store: Store) => {
    if (!withPanel) {
      connectDevtools(store, { window: pageWithoutPanel });
      return;
    }
    const window = new BenchWindow();
    const bridge = connectDevtools(store, { window: window as unknown as Window });
    // A panel connecting to a seeded store gets a snapshot of it: untimed, but tens of ms for
    // 10k todos, and a fast workload makes thousands of stores per sample. The stand-in holds
    // the seed already: after one change it connects up to date, and is sent only what follows.
    store.controller.setResponse(panelConnected, true);
    const panel = new PanelStandIn(window, 1);
    panel.connect();
    panels.push(panel);
    pending.push(bridge);
  });
  return {
    contender,
    /** Delivers what the bridges of the last operations still hold, inside the timed part. */
    flushAll() {
      for (const bridge of pending.splice(0)) bridge.flush();
    },
    /** What the panels received and have not read: the live events messages. */
    takeAll(): EventsMessage[] {
      return panels.splice(0).flatMap((panel) => panel.take());
    },
    /** The panels read what they received (untimed); returns how many seqs were missing. */
    readAll() {
      for (const panel of panels.splice(0)) {
        panel.read();
        gaps += panel.gaps;
      }
      return gaps;
    },
  };
}

/** Stores that only keep what the ring must (keptRing.ts): the least a bridge can cost. */
const keepingOnly = oursWith('ours + changes kept', keepAsTheRingDoes);

export interface DevtoolsWorkloadResult {
  name: string;
  plain: Measurement;
  bridge: Measurement;
  panel: Measurement;
  /** Relative slowdown: 0.02 is 2% slower than the plain store. */
  bridgeOverhead: number;
  /** Its 95% interval (bootstrap over the rounds). */
  bridgeInterval: [number, number];
  /**
   * A second plain store against the first, in the same rounds (an A/A control): what the
   * comparison reads where there is no difference.
   */
  controlOverhead: number;
  /** Stores that only keep what the ring must keep, in the same rounds: the least a bridge costs. */
  keepingOverhead: number;
  panelOverhead: number;
  /** What relaying the events alone costs, over the plain store's time (see relayFloor). */
  relayOverhead: number;
}

export interface DevtoolsReport {
  results: DevtoolsWorkloadResult[];
  medianBridgeOverhead: number;
  medianBridgeInterval: [number, number];
  medianControlOverhead: number;
  medianKeepingOverhead: number;
  medianPanelOverhead: number;
  medianRelayOverhead: number;
  /** Heap bytes the bridge keeps per change with no panel, measured on pushes into a 10k store. */
  bridgeBytesPerPush: number;
  /** The same in a store of 100k todos (the goal's figure). */
  bridgeBytesPerPush100k: number;
  eventsPerSecond: number;
  gaps: number;
  goal: {
    /** On every workload. */
    bridgeOverheadAtMost: number;
    eventsPerSecondAtLeast: number;
    bytesPerChangeAtMost: number;
    met: boolean;
  };
}

/**
 * The no-panel comparison takes this many times the rounds (and the time) of the others: a cost
 * of a few percent is smaller than the spread of single rounds (±20% on these allocation-heavy workloads), and
 * the median of 40 rounds moved by about as much as the goal between runs.
 */
const NO_PANEL_SAMPLING = 3;
/**
 * The no-panel comparison's rounds are taken in this many processes, one after the other, and
 * pooled: the same workload measured in separate processes differed by more than one process's
 * interval (by how V8 happened to compile and lay out each), as benchmark harnesses that fork
 * (JMH) also find.
 */
const NO_PANEL_PROCESSES = 3;
/** Makes the bench's entry run one no-panel process's share and print it (see noPanelProcess). */
export const NO_PANEL_PROCESS_FLAG = '--devtools-no-panel-process';

/**
 * One workload's no-panel comparison, by round: the plain store's samples, a second plain store's
 * (the A/A control), the bridge's, and those of stores that only keep the changes (keepingOnly).
 */
export interface NoPanelSamples {
  name: string;
  plain: Measurement;
  control: Measurement;
  bridge: Measurement;
  keeping: Measurement;
}

/**
 * One process's share of the no-panel comparison (run with NO_PANEL_PROCESS_FLAG): every store
 * workload, the plain store, the control (a second plain store), the bridge and the stores that
 * only keep the changes taking turns.
 */
export function noPanelProcess(
  storeWorkloads: readonly Workload[],
  plain: Contender,
  options: SamplerOptions,
  log: (message: string) => void,
): NoPanelSamples[] {
  const bridge = bridged('ours + bridge', false);
  return storeWorkloads.map((workload) => {
    log(`… devtools, no panel: ${workload.name}`);
    const [plainM, controlM, bridgeM, keepingM] = measureInterleaved(
      setUpTogether(workload, [plain, plain, bridge.contender, keepingOnly]),
      {
        ...options,
        budgetMs: (options.budgetMs * NO_PANEL_SAMPLING) / NO_PANEL_PROCESSES,
        maxSamples: Math.ceil((options.maxSamples * NO_PANEL_SAMPLING) / NO_PANEL_PROCESSES),
      },
    ) as [Measurement, Measurement, Measurement, Measurement];
    return {
      name: workload.name,
      plain: plainM,
      control: controlM,
      bridge: bridgeM,
      keeping: keepingM,
    };
  });
}

/**
 * The no-panel comparison: NO_PANEL_PROCESSES runs of `entry` (the bench's bundle) with
 * NO_PANEL_PROCESS_FLAG, one after the other, each workload's rounds pooled (each round's pair
 * stays together).
 */
export function measureWithoutPanel(
  entry: string,
  extraArgs: readonly string[],
  log: (message: string) => void,
): NoPanelSamples[] {
  const runs = Array.from({ length: NO_PANEL_PROCESSES }, (_, index) => {
    log(`devtools without a panel: process ${index + 1} of ${NO_PANEL_PROCESSES}`);
    const child = spawnSync(
      process.execPath,
      [...process.execArgv, entry, NO_PANEL_PROCESS_FLAG, ...extraArgs],
      { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    if (child.status !== 0) throw new Error(`a no-panel process failed (exit ${child.status})`);
    return JSON.parse(child.stdout) as NoPanelSamples[];
  });
  return (runs[0] ?? []).map(({ name }, workload) => {
    const ofWorkload = runs.map((run) => run[workload] as NoPanelSamples);
    return {
      name,
      plain: pooled(ofWorkload.map((samples) => samples.plain)),
      control: pooled(ofWorkload.map((samples) => samples.control)),
      bridge: pooled(ofWorkload.map((samples) => samples.bridge)),
      keeping: pooled(ofWorkload.map((samples) => samples.keeping)),
    };
  });
}
/**
 * The panel comparison takes at least this many rounds: preparing its stores is slow (each panel
 * gets a snapshot when it connects, untimed but within the budget), and the budget alone ended
 * some workloads after three rounds.
 */
const PANEL_MIN_ROUNDS = 10;

/**
 * The sides of one comparison, set up one after the other right after a full collection, so that
 * their seed states are alike: a seed made before a collection is moved to the old generation by
 * it, one made after is not, and that alone made the later side's pushes 2–5% slower and its
 * invalidations 3–5% faster in an A/A run (plain store against plain store).
 */
function setUpTogether(workload: Workload, contenders: readonly Contender[]): Side[] {
  globalThis.gc?.();
  return contenders.map((contender) => workload.setup(contender));
}

const GOAL = {
  /** On every workload: the bridge with no panel costs at most 1.5× the plain store. */
  bridgeOverheadAtMost: 0.5,
  eventsPerSecondAtLeast: 10_000,
  /** Heap kept per change with no panel, in a 100k-entity store, states included. */
  bytesPerChangeAtMost: 4 * 1024,
};

/**
 * The devtools' costs: without a panel from `noPanel` (see measureWithoutPanel), and with one
 * measured here. They are two comparisons, each of two sides taking turns: a panel's stores get a
 * snapshot when it connects (untimed), and the garbage of that must not land in the bridge's
 * samples.
 */
export async function runDevtoolsBench(
  storeWorkloads: readonly Workload[],
  plain: Contender,
  options: SamplerOptions,
  noPanel: readonly NoPanelSamples[],
  log: (message: string) => void,
): Promise<DevtoolsReport> {
  const panel = bridged('ours + bridge + panel', true);
  const results: DevtoolsWorkloadResult[] = [];
  for (const workload of storeWorkloads) {
    log(`… devtools with a panel: ${workload.name}`);
    const samples = noPanel.find((samples) => samples.name === workload.name);
    if (!samples) throw new Error(`no samples without a panel for ${workload.name}`);
    const { plain: plainM, control: controlM, bridge: bridgeM, keeping: keepingM } = samples;
    const [plainRun, panelRun] = setUpTogether(workload, [plain, panel.contender]) as [Side, Side];
    const [plainWithPanelM, panelM] = measureInterleaved(
      [
        plainRun,
        {
          prepare: (batch) => {
            panel.readAll();
            const run = panelRun.prepare(batch);
            return () => {
              run();
              panel.flushAll();
            };
          },
        },
      ],
      { ...options, minSamples: Math.max(options.minSamples, PANEL_MIN_ROUNDS) },
    ) as [Measurement, Measurement];
    results.push({
      name: workload.name,
      plain: plainM,
      bridge: bridgeM,
      panel: panelM,
      bridgeOverhead: pairedSlowdown(bridgeM.times, plainM.times),
      bridgeInterval: slowdownInterval([pairedRatios(bridgeM.times, plainM.times)]),
      controlOverhead: pairedSlowdown(controlM.times, plainM.times),
      keepingOverhead: pairedSlowdown(keepingM.times, plainM.times),
      panelOverhead: pairedSlowdown(panelM.times, plainWithPanelM.times),
      relayOverhead: relayFloor(workload, median(plainWithPanelM.times)),
    });
  }
  const medianBridgeOverhead = median(results.map((result) => result.bridgeOverhead));
  const medianBridgeInterval = slowdownInterval(
    results.map((result) => pairedRatios(result.bridge.times, result.plain.times)),
  );
  const medianControlOverhead = median(results.map((result) => result.controlOverhead));
  const medianKeepingOverhead = median(results.map((result) => result.keepingOverhead));
  const medianPanelOverhead = median(results.map((result) => result.panelOverhead));
  const medianRelayOverhead = median(results.map((result) => result.relayOverhead));
  const workloadGaps = panel.readAll();
  const throughput = eventsPerSecond(options.budgetMs < 2000 ? 5_000 : 50_000);
  log('… devtools: heap kept per change, 10k and 100k stores');
  const bytes10k = bridgeBytesPerPush(plain, COLLECTION_SIZE);
  const bytes100k = bridgeBytesPerPush(plain, 100_000);
  return {
    results,
    medianBridgeOverhead,
    medianBridgeInterval,
    medianControlOverhead,
    medianKeepingOverhead,
    medianPanelOverhead,
    medianRelayOverhead,
    bridgeBytesPerPush: bytes10k,
    bridgeBytesPerPush100k: bytes100k,
    eventsPerSecond: throughput.eventsPerSecond,
    gaps: throughput.gaps + workloadGaps,
    goal: {
      ...GOAL,
      met:
        results.every((result) => result.bridgeOverhead <= GOAL.bridgeOverheadAtMost) &&
        throughput.eventsPerSecond >= GOAL.eventsPerSecondAtLeast &&
        throughput.gaps + workloadGaps === 0 &&
        bytes100k <= GOAL.bytesPerChangeAtMost,
    },
  };
}

/**
 * The least a connected panel costs the page per operation, whatever describes the events: the
 * events one operation of `workload` posted, serialized again as the bridge serializes them (each
 * event's JSON text, joined in its message), then received and serialized for the port as the
 * content script does. A design that sends every event to a live panel as JSON pays at least
 * this on the page's thread. Returned over `plainMs`, the plain store's time per operation.
 */
function relayFloor(workload: Workload, plainMs: number): number {
  const panel = bridged('ours + bridge + panel', true);
  workload.setup(panel.contender).prepare(1)();
  panel.flushAll();
  const messages = panel.takeAll();
  const events = messages.map((message) => JSON.parse(message.data) as unknown[]);
  let relayed = 0;
  const relayAll = () => {
    for (const [index, message] of messages.entries()) {
      const data = `[${(events[index] ?? []).map((event) => JSON.stringify(event)).join(',')}]`;
      relayed += JSON.stringify(structuredClone({ ...message, data })).length;
    }
  };
  const times = Array.from({ length: RELAY_SAMPLES + RELAY_WARM_UP }, () => {
    const start = performance.now();
    for (let round = 0; round < RELAYS_PER_SAMPLE; round++) relayAll();
    return (performance.now() - start) / RELAYS_PER_SAMPLE;
  });
  if (relayed === 0) throw new Error(`${workload.name}: an operation posted no events to relay`);
  return median(times.slice(RELAY_WARM_UP)) / plainMs;
}
const RELAY_WARM_UP = 3;
const RELAY_SAMPLES = 11;
const RELAYS_PER_SAMPLE = 10;

/**
 * What the bridge keeps per change with no panel: heap bytes per push held by stores with a
 * bridge (whose ring keeps the last 1000 changes, each with its action, change-set and state)
 * over the same held by plain stores, after 1000 pushes into a collection of `size` todos in each
 * of STORES stores (full collections before and after). The stores start from one seed state,
 * which they share. The collector's page-sized accounting blurs one store's figure by a few
 * hundred bytes per push; ten stores and the median of three rounds make it steady to within a
 * few percent.
 */
function bridgeBytesPerPush(plain: Contender, size: number): number {
  const bridged = oursWith('ours + bridge', (store) => {
    connectDevtools(store, { window: pageWithoutPanel });
  });
  const seed = bridged.seedState(makeTodos(size));
  const pushes = makeTodos(1000, size);
  const perPush = (contender: Contender) => {
    const stores = Array.from({ length: STORES }, () => contender.createStore(seed));
    globalThis.gc?.();
    const before = process.memoryUsage().heapUsed;
    for (const store of stores) for (const todo of pushes) store.push(todo);
    globalThis.gc?.();
    const bytes = process.memoryUsage().heapUsed - before;
    // Read after measuring, so the stores are still alive when the heap is.
    if (stores.some((store) => store.readList()?.length !== size + pushes.length))
      throw new Error(`${contender.name}: the pushes did not all land`);
    return bytes / (STORES * pushes.length);
  };
  perPush(bridged); // warms the code up
  return median([0, 1, 2].map(() => perPush(bridged) - perPush(plain)));
}
const STORES = 10;

class Counter extends Entity {
  id = 0;
  value = 0;
  pk() {
    return `${this.id}`;
  }
  static override key = 'BenchCounter';
}
const setCounter = new Endpoint(async (_params: { id: number }) => undefined, {
  name: 'Counter.update',
  schema: Counter,
  sideEffect: true,
  key: (params: { id: number }) => `PUT /counters/${params.id}`,
});

/**
 * Events per second from a store to a connected panel: many small updates (the event rate is
 * then bounded by the bridge, not by the store), sent in batches as the bridge's timer would.
 */
function eventsPerSecond(events: number): { eventsPerSecond: number; gaps: number } {
  const store = createStore();
  const window = new BenchWindow();
  const bridge = connectDevtools(store, { window: window as unknown as Window });
  const panel = new PanelStandIn(window);
  panel.connect();
  const start = performance.now();
  for (let sent = 0; sent < events; sent++) {
    const id = sent % 10;
    store.controller.setResponse(setCounter, { id }, { id, value: sent });
    if (sent % 500 === 499) {
      bridge.flush(); // the batch timer fires every 50 ms
      panel.read();
    }
  }
  bridge.flush();
  panel.read();
  const seconds = (performance.now() - start) / 1000;
  bridge.disconnect();
  return {
    eventsPerSecond: panel.lastSeq / seconds,
    gaps: panel.gaps + (panel.lastSeq === events ? 0 : 1),
  };
}

export function formatDevtoolsReport(report: DevtoolsReport): string {
  const percent = (value: number) => `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)}%`;
  const ops = (m: Measurement) =>
    m.opsPerSecond >= 100
      ? Math.round(m.opsPerSecond).toLocaleString('en-US')
      : m.opsPerSecond.toPrecision(3);
  const interval = ([low, high]: [number, number]) => `${percent(low)} … ${percent(high)}`;
  const rows = [
    [
      'workload',
      'plain ops/s',
      'bridge ops/s',
      'cost',
      '95% interval',
      'A/A',
      'kept only',
      'panel ops/s',
      'cost',
      'relay only',
    ],
  ];
  for (const r of report.results) {
    rows.push([
      r.name,
      ops(r.plain),
      ops(r.bridge),
      percent(r.bridgeOverhead),
      interval(r.bridgeInterval),
      percent(r.controlOverhead),
      percent(r.keepingOverhead),
      ops(r.panel),
      percent(r.panelOverhead),
      percent(r.relayOverhead),
    ]);
  }
  rows.push([
    'median',
    '',
    '',
    percent(report.medianBridgeOverhead),
    interval(report.medianBridgeInterval),
    percent(report.medianControlOverhead),
    percent(report.medianKeepingOverhead),
    '',
    percent(report.medianPanelOverhead),
    percent(report.medianRelayOverhead),
  ]);
  const widths =
    rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  const lines = rows.map((row) =>
    row
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[0] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join('  '),
  );
  return [
    'devtools cost on the core store workloads (goal: bridge ≤ +50% on every workload; the panel is reported, its goal is the Chromium mixed writes of --scale; cost = median of the per-round time ratios;',
    'A/A = a second plain store against the first in the same rounds, what the comparison reads for no difference;',
    `kept only = stores that only keep each change's action, change-set and state in a ring of ${DEFAULT_RING_SIZE} (${DEFAULT_STATES_KEPT} with their state), the least a bridge costs;`,
    'relay only = serializing the events one operation posted and relaying them as the content script does, over the plain time: the least a live panel costs)',
    ...lines,
    '',
    `kept by the bridge (no panel, states included): ${Math.round(report.bridgeBytesPerPush)} bytes per push in a 10k store, ${Math.round(report.bridgeBytesPerPush100k)} in a 100k store (goal ≤ 4096)`,
    `events through the bridge to a panel: ${Math.round(report.eventsPerSecond).toLocaleString('en-US')}/s (goal ≥ 10,000/s), seq gaps: ${report.gaps}`,
    `keeping the changes alone (no panel) costs ${percent(report.medianKeepingOverhead)} (median): the least a bridge costs in this run`,
    `relaying the events alone (panel) costs ${percent(report.medianRelayOverhead)} (median): the least a live panel costs in this run`,
    `goals ${report.goal.met ? 'met' : 'NOT met'}`,
  ].join('\n');
}

/** The rings `--devtools-ring` compares: the bridge's default, and one that keeps almost nothing. */
const RINGS = [
  { ringSize: DEFAULT_RING_SIZE, statesKept: DEFAULT_STATES_KEPT },
  { ringSize: 10, statesKept: 1 },
] as const;
/** Makes the bench's entry measure one ring of RINGS (its index follows) and print the lines. */
export const RING_PROCESS_FLAG = '--devtools-ring-process';

/**
 * What the ring's length costs (`npm run bench -- --devtools-ring`): on the workloads that make
 * 1000 changes a store, a plain store against a bridge with each ring of RINGS, two sides, each
 * ring in a process of its own. In one process the comparisons run before leave their mark: a
 * ring of 10 read +40–49% after the default ring's comparison and +5–7% in a fresh process, and
 * beside larger rings in one comparison a side is charged for its neighbours' collections. The
 * small ring's cost is about the bridge's own work; the default's, that and what it keeps.
 */
export function measureRings(entry: string, log: (message: string) => void): string {
  const lines = RINGS.map((ring, index) => {
    log(`devtools ring of ${ring.ringSize} changes (${ring.statesKept} states), own process`);
    const child = spawnSync(
      process.execPath,
      [...process.execArgv, entry, RING_PROCESS_FLAG, String(index)],
      { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' },
    );
    if (child.status !== 0) throw new Error(`a ring process failed (exit ${child.status})`);
    return child.stdout.trimEnd();
  });
  return ['bridge cost with no panel, by ring (plain store against the bridge):', ...lines].join(
    '\n',
  );
}

/** One ring's share of measureRings (run with RING_PROCESS_FLAG): its line per workload. */
export function ringProcess(
  index: number,
  storeWorkloads: readonly Workload[],
  plain: Contender,
  options: SamplerOptions,
): string {
  const ring = RINGS[index];
  if (!ring) throw new Error(`no ring ${index}`);
  const bridge = oursWith(`ours + ring of ${ring.ringSize}`, (store) => {
    connectDevtools(store, { window: pageWithoutPanel, ...ring });
  });
  return storeWorkloads
    .filter(({ name }) => name.includes('(op = all'))
    .map((workload) => {
      const [plainM, bridgeM] = measureInterleaved(
        setUpTogether(workload, [plain, bridge]),
        options,
      ) as [Measurement, Measurement];
      const cost = pairedSlowdown(bridgeM.times, plainM.times);
      const shown = `${cost >= 0 ? '+' : ''}${(cost * 100).toFixed(1)}%`;
      return `  ring of ${ring.ringSize} (${ring.statesKept} states), ${workload.name}: ${shown}`;
    })
    .join('\n');
}
