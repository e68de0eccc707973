import { type MockInstance, vi } from 'vitest';
import type { StoreEvent } from '../../src/devtools/protocol/effects.js';
import {
  type EventsMessage,
  type ExtensionCommandBody,
  extensionCommand,
  type HelloMessage,
  type PageMessage,
  type RowsMessage,
  type SnapshotMessage,
  type SnapshotState,
} from '../../src/devtools/protocol/messages.js';
import { isPageMessage, parseEvents, parseMembers } from '../../src/devtools/protocol/validate.js';

/** Shared helpers of the devtools tests (this file holds no tests). */

/**
 * Stands in for the extension's content script: records every message the page posts, in order
 * (synchronously, through spies that still deliver them): a store's greeting on
 * `window.postMessage`, and all it says after on its port, `MessagePort.prototype.postMessage`.
 * It sends commands as the content script would (`source: window`).
 */
export class PanelStandIn {
  /** Everything posted to the window or on a port since the stand-in was created, valid or not. */
  readonly raw: unknown[] = [];
  /** The ports greetings transferred (the content script's ends), by store id. */
  readonly ports = new Map<string, MessagePort>();
  private readonly spies: MockInstance[];

  constructor() {
    const postOnWindow = window.postMessage.bind(window);
    const postOnPort = MessagePort.prototype.postMessage;
    const raw = this.raw;
    this.spies = [
      vi.spyOn(window, 'postMessage').mockImplementation(((
        message: unknown,
        targetOrigin: string,
        transfer: MessagePort[] = [],
      ) => {
        raw.push(message);
        const { kind, storeId } = (message ?? {}) as { kind?: unknown; storeId?: unknown };
        if (kind === 'hello' && typeof storeId === 'string' && transfer[0])
          this.ports.set(storeId, transfer[0]);
        postOnWindow(message, targetOrigin);
      }) as typeof window.postMessage),
      vi.spyOn(MessagePort.prototype, 'postMessage').mockImplementation(function (
        this: MessagePort,
        message: unknown,
      ) {
        raw.push(message);
        postOnPort.call(this, message);
      } as typeof MessagePort.prototype.postMessage),
    ];
  }

  /** Messages already checked (checking parses the events, which is slow for large ones). */
  private readonly checked = new WeakSet<object>();

  /**
   * The posted messages, each checked with the protocol's own validators: the envelope with
   * isPageMessage, and the events of an events message with parseEvents, as the panel reads them.
   */
  get messages(): PageMessage[] {
    return this.raw.map((message) => {
      if (typeof message === 'object' && message !== null && this.checked.has(message))
        return message as PageMessage;
      if (!isPageMessage(message))
        throw new Error(
          `the page posted an invalid message: ${String(JSON.stringify(message)).slice(0, 300)}`,
        );
      if (message.kind === 'events') eventsIn(message);
      this.checked.add(message);
      return message;
    });
  }

  /** How many messages were posted so far (to look at only what follows). */
  get mark(): number {
    return this.raw.length;
  }

  /** Messages posted since `mark`, optionally of one store. */
  since(mark: number, storeId?: string): PageMessage[] {
    return this.messages
      .slice(mark)
      .filter((message) => storeId === undefined || message.storeId === storeId);
  }

  hellos(storeId?: string, from = 0): HelloMessage[] {
    return this.since(from, storeId).filter((m): m is HelloMessage => m.kind === 'hello');
  }

  eventMessages(storeId?: string, from = 0): EventsMessage[] {
    return this.since(from, storeId).filter((m): m is EventsMessage => m.kind === 'events');
  }

  /** Every event posted (history or live), in posting order. */
  events(storeId?: string, from = 0): StoreEvent[] {
    return this.eventMessages(storeId, from).flatMap(eventsIn);
  }

  /** The answers to `rows` commands. */
  rowsMessages(storeId?: string, from = 0): RowsMessage[] {
    return this.since(from, storeId).filter((m): m is RowsMessage => m.kind === 'rows');
  }

  /**
   * Asks for the current rows of `pks` of `table` (the `rows` command) and returns the one
   * answer, which the bridge posts synchronously.
   */
  rows(storeId: string, table: string, pks: string[]): RowsMessage {
    const mark = this.mark;
    this.send({ kind: 'rows', storeId, table, pks });
    const answers = this.rowsMessages(storeId, mark);
    if (answers.length !== 1) throw new Error(`expected one rows answer, got ${answers.length}`);
    return answers[0]!;
  }

  snapshots(storeId?: string, from = 0): SnapshotMessage[] {
    return this.since(from, storeId).filter((m): m is SnapshotMessage => m.kind === 'snapshot');
  }

  /** Sends a command as the content script does. */
  send(body: ExtensionCommandBody): void {
    dispatchFrom(window, extensionCommand(body));
  }

  /**
   * `connect {lastSeq}` and the messages it produced: the bridge answers synchronously (hello,
   * then the missing events or a snapshot).
   */
  connect(lastSeq = 0, storeId?: string): PageMessage[] {
    const mark = this.mark;
    this.send({ kind: 'connect', lastSeq, ...(storeId === undefined ? {} : { storeId }) });
    return this.since(mark);
  }

  /**
   * The events a store produced after `lastSeq`, pulled with a resync (`connect {lastSeq}`);
   * `lastSeq` 0 gets the whole ring (as history, after a snapshot).
   */
  pull(storeId: string, lastSeq: number): StoreEvent[] {
    const answer = this.connect(lastSeq, storeId);
    // After hello: a snapshot first means the events left the ring (a snapshot after the
    // events follows optimistic events, which the panel cannot follow from their effects).
    if (lastSeq > 0 && answer[1]?.kind === 'snapshot')
      throw new Error(`events after ${lastSeq} have left the ring: a snapshot came instead`);
    return answer.flatMap((message) => (message.kind === 'events' ? eventsIn(message) : []));
  }

  restore(): void {
    for (const spy of this.spies) spy.mockRestore();
  }
}

/** The events an events message carries, read with the protocol's parser; throws if malformed. */
export function eventsIn(message: EventsMessage): StoreEvent[] {
  const events = parseEvents(message);
  if (events === undefined)
    throw new Error(`the page posted malformed events: ${message.data.slice(0, 200)}`);
  return events;
}

/** Dispatches a `message` event on the window as coming from `source`. */
export function dispatchFrom(source: MessageEventSource | null, data: unknown): void {
  window.dispatchEvent(new MessageEvent('message', { data, source }));
}

/**
 * The first snapshot among `messages` as a panel ends up holding it: its chunks joined and
 * parsed (all of them must be there, in order), then the lists it counted, from the `members`
 * messages that follow it, put back where earlier pages sent them: each entity table's pks in
 * `pks`, each collection row's members in `entities`. Throws when a list is not what the
 * snapshot counted.
 */
export function joinSnapshot(messages: readonly PageMessage[]): SnapshotState {
  const start = messages.findIndex((message) => message.kind === 'snapshot');
  const first = messages[start] as SnapshotMessage | undefined;
  if (first === undefined) throw new Error('no snapshot was posted');
  const chunks = messages.slice(start, start + first.count) as SnapshotMessage[];
  chunks.forEach((chunk, index) => {
    if (chunk.kind !== 'snapshot' || chunk.index !== index || chunk.seq !== first.seq)
      throw new Error(`chunk ${index} is missing, out of order or of another snapshot`);
  });
  const snapshot = JSON.parse(chunks.map((chunk) => chunk.data).join('')) as SnapshotState;
  const pks: Record<string, string[]> = {};
  const entities: Record<string, Record<string, string[]>> = {};
  for (const message of messages.slice(start + first.count)) {
    if (message.kind !== 'members') break;
    if (message.seq !== first.seq) throw new Error('members of another snapshot');
    const part = parseMembers(message);
    if (part === undefined) throw new Error(`malformed members: ${message.data.slice(0, 200)}`);
    if (message.row === undefined) pks[message.table] = [...(pks[message.table] ?? []), ...part];
    else {
      const rows = entities[message.table] ?? {};
      rows[message.row] = [...(rows[message.row] ?? []), ...part];
      entities[message.table] = rows;
    }
  }
  for (const [table, size] of Object.entries(snapshot.tableSizes ?? {}))
    if ((pks[table]?.length ?? 0) !== size) throw new Error(`${table}: not ${size} pks`);
  for (const [collection, rows] of Object.entries(snapshot.collectionSizes ?? {}))
    for (const [row, size] of Object.entries(rows))
      if ((entities[collection]?.[row]?.length ?? 0) !== size)
        throw new Error(`${collection} ${row}: not ${size} members`);
  return { ...snapshot, entities: { ...snapshot.entities, ...entities }, pks };
}

/** Resolves after pending macrotasks (real timers). */
export function nextTask(ms = 0): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Collects errors reported on the window (exceptions thrown by message listeners land here). */
export function collectWindowErrors(): { errors: unknown[]; stop(): void } {
  const errors: unknown[] = [];
  const listener = (event: ErrorEvent) => {
    errors.push(event.error ?? event.message);
    event.preventDefault();
  };
  window.addEventListener('error', listener);
  return { errors, stop: () => window.removeEventListener('error', listener) };
}

/** The effects of the given types, in order. */
export function effectsOf<T extends StoreEvent['effects'][number]['type']>(
  event: StoreEvent | undefined,
  ...types: T[]
): Extract<StoreEvent['effects'][number], { type: T }>[] {
  if (event === undefined) throw new Error('no event');
  return event.effects.filter((effect) => (types as string[]).includes(effect.type)) as Extract<
    StoreEvent['effects'][number],
    { type: T }
  >[];
}
