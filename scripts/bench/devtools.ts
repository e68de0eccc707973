/**
 * The devtools' cost (issue 4): the same core workload on a plain store, on a store with the
 * devtools bridge but no panel (goal ≤ 3% overhead), and with a connected panel stand-in that
 * receives (structured-clones) every message (goal ≤ 25%); then events per second through the
 * bridge with no gap in `seq` (goal ≥ 10,000/s).
 */
import {
  connectDevtools,
  extensionCommand,
  isPageMessage,
} from '../../library/src/devtools/index.js';
import {
  createStore,
  Endpoint,
  Entity,
  type Schema,
  type Store,
  schema,
} from '../../library/src/index.js';
import { median, relativeSpread } from './stats.js';

class Todo extends Entity {
  id = 0;
  title = '';
  completed = false;
  userId = 0;
  pk() {
    return `${this.id}`;
  }
  static override key = 'DevtoolsBenchTodo';
}

const collection = new schema.Collection([Todo]);
function endpoint<S extends Schema>(name: string, endpointSchema: S, sideEffect?: true) {
  return new Endpoint(async (..._args: unknown[]): Promise<unknown> => undefined, {
    name,
    schema: endpointSchema,
    sideEffect,
    key: (params?: unknown) => `${name} ${JSON.stringify(params ?? {})}`,
  });
}
const getList = endpoint('Todo.getList', collection);
const push = endpoint('Todo.getList.push', collection.push, true);
const update = endpoint('Todo.partialUpdate', Todo, true);
const remove = endpoint('Todo.delete', new schema.Invalidate(Todo), true);

const LIST_SIZE = 1000;
const todo = (id: number) => ({ id, title: `todo ${id}`, completed: false, userId: 1 });

/** A window the bridge can talk through, in Node: postMessage delivers later, like a browser. */
class BenchWindow {
  readonly document = { title: 'bench' };
  private readonly listeners = new Set<(event: { data: unknown; source: unknown }) => void>();
  postMessage(data: unknown): void {
    setImmediate(() => {
      for (const listener of this.listeners) listener({ data, source: this });
    });
  }
  addEventListener(
    _type: 'message',
    listener: (event: { data: unknown; source: unknown }) => void,
  ) {
    this.listeners.add(listener);
  }
  removeEventListener(
    _type: 'message',
    listener: (event: { data: unknown; source: unknown }) => void,
  ) {
    this.listeners.delete(listener);
  }
}

/** Stands in for the content script and panel: clones every page message, tracks seq. */
class PanelStandIn {
  lastSeq = 0;
  gaps = 0;
  constructor(private readonly window: BenchWindow) {
    window.addEventListener('message', (event) => {
      if (!isPageMessage(event.data)) return;
      const message = structuredClone(event.data); // what crossing into the extension costs
      if (message.kind !== 'events' || message.history) return;
      for (const { seq } of message.events) {
        if (seq !== this.lastSeq + 1) this.gaps++;
        this.lastSeq = seq;
      }
    });
  }
  connect(): void {
    const data = extensionCommand({ kind: 'connect', lastSeq: 0 });
    for (const listener of (this.window as unknown as { listeners: Set<(e: unknown) => void> })
      .listeners)
      listener({ data, source: this.window });
  }
  /** Resolves once every event up to `seq` has arrived. */
  async received(seq: number): Promise<void> {
    while (this.lastSeq < seq) await new Promise((resolve) => setImmediate(resolve));
  }
}

type Mode = 'plain' | 'bridge, no panel' | 'bridge + panel';

interface Setup {
  store: Store;
  panel?: PanelStandIn;
  seq: () => number;
  close: () => void;
}

function setup(mode: Mode): Setup {
  const store = createStore();
  store.controller.setResponse(
    getList,
    {},
    Array.from({ length: LIST_SIZE }, (_, i) => todo(i + 1)),
  );
  if (mode === 'plain') return { store, seq: () => 0, close: () => {} };
  const window = new BenchWindow();
  let seq = 1;
  store.observe(() => seq++);
  const bridge = connectDevtools(store, { window: window as unknown as Window, batchInterval: 50 });
  const panel = mode === 'bridge + panel' ? new PanelStandIn(window) : undefined;
  panel?.connect();
  return { store, panel, seq: () => seq - 1, close: bridge.disconnect };
}

/** The core workload: per operation a push, an update and, every fifth time, a delete. */
function operate(store: Store, from: number, count: number): void {
  const { controller } = store;
  for (let i = 0; i < count; i++) {
    const id = LIST_SIZE + from + i + 1;
    controller.setResponse(push, {}, todo(id), todo(id));
    controller.setResponse(
      update,
      { id: (i % LIST_SIZE) + 1 },
      { id: (i % LIST_SIZE) + 1, completed: i % 2 === 0 },
    );
    if (i % 5 === 0) controller.setResponse(remove, { id }, { id });
  }
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** CPU time per operation of one sample, including sending to the panel when one is connected. */
async function sample(mode: Mode, operations: number): Promise<number> {
  const run = setup(mode);
  await new Promise((resolve) => setImmediate(resolve)); // the connect handshake
  await run.panel?.received(run.seq());
  const start = cpuMs();
  operate(run.store, 0, operations);
  await run.panel?.received(run.seq());
  const elapsed = cpuMs() - start;
  run.close();
  return elapsed / operations;
}

export interface DevtoolsReport {
  overhead: {
    mode: Mode;
    msPerOperation: number;
    spread: number;
    overhead: number;
    goal: number;
  }[];
  eventsPerSecond: number;
  gaps: number;
  met: boolean;
}

const MODES: Mode[] = ['plain', 'bridge, no panel', 'bridge + panel'];

/** Interleaved samples of the three modes, then the throughput run. */
export async function runDevtoolsBench(options: { quick: boolean }): Promise<DevtoolsReport> {
  const rounds = options.quick ? 4 : 15;
  const operations = options.quick ? 100 : 300;
  const times = new Map<Mode, number[]>(MODES.map((mode) => [mode, []]));
  for (let round = 0; round < 2; round++) for (const mode of MODES) await sample(mode, operations); // warm-up
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? MODES : [...MODES].reverse();
    for (const mode of order) times.get(mode)?.push(await sample(mode, operations));
  }
  const plain = median(times.get('plain') ?? []);
  const overhead = MODES.map((mode) => {
    const values = times.get(mode) ?? [];
    const msPerOperation = median(values);
    return {
      mode,
      msPerOperation,
      spread: relativeSpread(values),
      overhead: msPerOperation / plain - 1,
      goal: mode === 'bridge + panel' ? 0.25 : mode === 'bridge, no panel' ? 0.03 : 0,
    };
  });
  const throughput = await eventsPerSecond(options.quick ? 5_000 : 30_000);
  return {
    overhead,
    ...throughput,
    met:
      overhead.every((entry) => entry.mode === 'plain' || entry.overhead <= entry.goal) &&
      throughput.eventsPerSecond >= 10_000 &&
      throughput.gaps === 0,
  };
}

/** Events the bridge carries per second to a connected panel, with every seq accounted for. */
async function eventsPerSecond(events: number): Promise<{ eventsPerSecond: number; gaps: number }> {
  const run = setup('bridge + panel');
  await new Promise((resolve) => setImmediate(resolve));
  await run.panel?.received(run.seq());
  const first = run.seq();
  const start = performance.now();
  const { controller } = run.store;
  for (let produced = 0; produced < events; produced += 1000) {
    for (let i = 0; i < 1000; i++) {
      const id = (i % LIST_SIZE) + 1;
      controller.setResponse(update, { id }, { id, title: `t${produced + i}` });
    }
    await new Promise((resolve) => setImmediate(resolve)); // let the page breathe, as an app does
  }
  await run.panel?.received(run.seq());
  const seconds = (performance.now() - start) / 1000;
  const gaps = run.panel?.gaps ?? 0;
  run.close();
  return { eventsPerSecond: (run.seq() - first) / seconds, gaps };
}

export function formatDevtoolsReport(report: DevtoolsReport): string {
  const lines = ['devtools cost (same workload: push + update per op, a delete every 5th)', ''];
  for (const entry of report.overhead) {
    const overhead =
      entry.mode === 'plain'
        ? ''
        : `${(entry.overhead * 100).toFixed(1)}% (goal ≤ ${entry.goal * 100}%)`;
    lines.push(
      `  ${entry.mode.padEnd(18)} ${(entry.msPerOperation * 1000).toFixed(1).padStart(8)} µs/op  ±${(entry.spread * 100).toFixed(1)}%  ${overhead}`,
    );
  }
  lines.push(
    '',
    `  events through the bridge: ${Math.round(report.eventsPerSecond).toLocaleString('en-US')}/s (goal ≥ 10,000/s), seq gaps: ${report.gaps}`,
  );
  lines.push(`  goals ${report.met ? 'met' : 'NOT met'}`);
  return lines.join('\n');
}
