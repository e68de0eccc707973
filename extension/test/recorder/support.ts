import type {
  ActionSummary,
  Effect,
  StoreEvent,
} from '../../../library/src/devtools/protocol/effects.js';
import type { Encoded } from '../../../library/src/devtools/protocol/messages.js';
import { persistRecording } from '../../src/panel/recorder/persist.js';
import type { RecordingStorage } from '../../src/panel/recorder/storage.js';
import { type MountedPanel, mountPanel } from '../panel/support/harness.js';

/** Recorder test helpers (this file holds no tests). */

/**
 * Extension storage in memory. Values are structured-cloned on the way in and out, as the
 * browser does, so a test cannot pass by sharing objects with the panel.
 */
export class MemoryStorage implements RecordingStorage {
  value: unknown;
  saves = 0;
  removes = 0;
  /** Make the next load or save fail with this message. */
  failLoad?: string;
  failSave?: string;

  constructor(value?: unknown) {
    this.value = value === undefined ? undefined : structuredClone(value);
  }

  async load(): Promise<unknown> {
    if (this.failLoad) throw new Error(this.failLoad);
    return this.value === undefined ? undefined : structuredClone(this.value);
  }

  async save(value: unknown): Promise<void> {
    if (this.failSave) throw new Error(this.failSave);
    this.saves++;
    this.value = structuredClone(value);
  }

  async remove(): Promise<void> {
    this.removes++;
    this.value = undefined;
  }
}

/** The panel over a fake tab, its recording kept in `storage` as index.tsx keeps it. */
export function mountWithStorage(storage: RecordingStorage): MountedPanel {
  const panel = mountPanel();
  const stop = persistRecording(panel.store, storage);
  return {
    ...panel,
    unmount: () => {
      stop();
      panel.unmount();
    },
  };
}

let seq = 0;

/** A store event as the page sends it: a `setResponse` of `endpoint` unless told otherwise. */
export function storeEvent(
  action: Partial<ActionSummary> & { endpoint?: string },
  effects: Effect[] = [],
): StoreEvent {
  seq++;
  return {
    seq,
    time: 1_700_000_000_000 + seq,
    action: { type: 'setResponse', args: [], ...action },
    effects,
  };
}

/** A successful mutation's answer, shaped like the library's (args, then the body). */
export function mutationEvent(
  endpoint: string,
  args: Encoded[],
  response: Encoded,
  extra: Partial<ActionSummary> = {},
): StoreEvent {
  const body = args.length > 1 ? { body: args[args.length - 1] as Encoded } : {};
  return storeEvent({
    endpoint,
    mutation: true,
    method: 'POST',
    args,
    ...body,
    response,
    ...extra,
  });
}

/** A `replay` event carrying one result, as the page reports each replayed mutation. */
export function replayResultEvent(
  replayId: string,
  index: number,
  ok: boolean,
  error?: string,
): StoreEvent {
  return storeEvent({ type: 'replay', endpoint: 'Todo.update', args: undefined }, [
    {
      type: 'replay-result',
      replayId,
      index,
      endpoint: 'Todo.update',
      ok,
      ...(error ? { error } : {}),
    },
  ]);
}
