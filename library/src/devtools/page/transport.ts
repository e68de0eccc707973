import {
  type ExtensionCommand,
  MAX_MESSAGE_LENGTH,
  type PageMessageBody,
  pageMessage,
} from '../protocol/messages.js';
import { inspectorCommandRefusal, isExtensionCommand } from '../protocol/validate.js';
import { SlicedWork } from './slices.js';
import { chunksOf, listParts, RELAY_MESSAGE_LENGTH, type SnapshotList } from './snapshot.js';
import { LIBRARY_VERSION } from './version.js';

/** Room for the envelope of an events message around its JSON text. */
const ENVELOPE_LENGTH = 1024;
/** The longest event text an events message carries (see PanelTransport.postEvents). */
export const MAX_EVENT_LENGTH = MAX_MESSAGE_LENGTH - ENVELOPE_LENGTH;
/** Keep each events message around this size (JSON length); see RELAY_MESSAGE_LENGTH. */
const BATCH_LENGTH = RELAY_MESSAGE_LENGTH;

/**
 * The commands that wait while an answer is sent in slices. A read is answered at the latest seq,
 * once every event up to it was posted: while a resync answer is being sent, it waits (and so
 * does a snapshot asked for meanwhile).
 */
const WAITS: ReadonlySet<ExtensionCommand['kind']> = new Set([
  'rows',
  'results',
  'snapshot',
  'readers',
]);

/** What the transport is told of the store it speaks for: who it is, not what it holds. */
export interface TransportOptions {
  storeId: string;
  storeName: string;
  /** At most how often a batch of events goes, in ms (see DevtoolsOptions.batchInterval). */
  batchInterval: number;
  /** How long one slice of long work may run, in ms (see DevtoolsOptions.sliceMs). */
  sliceMs: number;
}

/** Who the transport hands what it cannot do itself: the panel's commands, and each batch. */
export interface TransportPeer<Entry> {
  /** Runs a command of the panel for this store (or for every store), in its turn. */
  run(command: ExtensionCommand): void;
  /** The messages of one batch, made and posted step by step: `entries` are what was queued. */
  batch(entries: readonly Entry[]): Generator<void>;
}

/** A window with the constructor of its realm's message channels (every browser window has one). */
type PageWindow = Window & Pick<typeof globalThis, 'MessageChannel'>;

/** The two ends of a new channel made by `target`'s realm; throws, saying so, when it has none. */
function channelOf(target: Window): MessageChannel {
  const { MessageChannel: Channel } = target as PageWindow;
  if (typeof Channel !== 'function')
    throw new TypeError('RestLens devtools: the window has no MessageChannel to talk to the panel');
  return new Channel();
}

/**
 * How a store talks to the panel, knowing nothing of the store: it greets the content script with
 * a window message (`hello`) that carries one end of a MessageChannel, and posts everything after
 * on the other end, which it alone holds: a script of the page can post window messages that look
 * like the store's, not messages on its port. It takes the panel's commands from the window
 * (valid ones, for this store), batches the entries its peer queues while a panel is connected,
 * and posts long answers in slices (SlicedWork), cut into messages of about a relay message.
 *
 * A resync's answer (a snapshot, the ring's history) can be seconds of work in a large store: it
 * is made and posted in slices. Meanwhile live entries wait in the queue and reads wait their
 * turn, so that the panel still gets everything in seq order.
 */
export class PanelTransport<Entry> {
  /**
   * The store's end of the channel it greeted the content script with: every message after
   * that first `hello` goes on it (see post).
   */
  private readonly port: MessagePort;
  private isConnected = false;
  private queue: Entry[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined = undefined;
  /** When the last batch of events started to be sent (see batchInterval). */
  private lastBatchAt = 0;
  /** A resync answer or a snapshot being sent, in slices. */
  private work: SlicedWork | undefined = undefined;
  /** Reads and snapshot commands that came while `work` runs: run once it is done. */
  private waiting: ExtensionCommand[] = [];

  constructor(
    private readonly target: Window,
    private readonly options: TransportOptions,
    private readonly peer: TransportPeer<Entry>,
  ) {
    this.target.addEventListener('message', this.onMessage);
    const { port1, port2 } = channelOf(this.target);
    this.port = port1;
    this.greet(port2);
  }

  get storeId(): string {
    return this.options.storeId;
  }

  /** Whether a panel is connected: only then is anything queued or sent. */
  get connected(): boolean {
    return this.isConnected;
  }

  /** Whether an answer is being sent in slices (what is sent meanwhile would come before it). */
  get busy(): boolean {
    return this.work !== undefined;
  }

  /**
   * Sends now, in this task, what is being sent in slices and the entries waiting for the next
   * batch.
   */
  flush(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    for (;;) {
      if (this.work !== undefined) this.work.finish();
      else if (this.queue.length > 0) this.sendPending();
      else return;
    }
  }

  /** Queues an entry for the next batch while a panel is connected (see batchInterval). */
  enqueue(entry: Entry): void {
    if (!this.isConnected) return;
    this.queue.push(entry);
    this.timer ??= setTimeout(
      this.batchDue,
      Math.max(0, this.lastBatchAt + this.options.batchInterval - Date.now()),
    );
  }

  /** A panel connected: the store answers its connect, then sends what it misses (`steps`). */
  connect(seq: number, steps: Generator<void>): void {
    this.isConnected = true;
    this.post(this.hello(seq, true));
    this.send(steps);
  }

  /** Stops talking: nothing more is posted, and the panel's commands are no longer taken. */
  close(): void {
    this.target.removeEventListener('message', this.onMessage);
    this.stopSending();
    this.port.close();
  }

  /**
   * Posts on the store's end of its channel, which no other script holds: what arrives on the
   * content script's end comes from this store.
   */
  post(message: PageMessageBody): void {
    this.port.postMessage(pageMessage(message));
  }

  /** Tells the panel a command failed, when it did (`problem` says why). */
  answer(command: string, problem: string | undefined): void {
    if (problem === undefined) return;
    // Within what the validators accept of a text the panel shows.
    const error = problem.slice(0, 1000);
    this.post({ kind: 'command-error', storeId: this.storeId, command, error });
  }

  /**
   * Sends in slices, in place of what was being sent so; the entries queued meanwhile, then the
   * commands that waited, follow it.
   */
  send(steps: Generator<void>): void {
    this.work?.cancel();
    this.work = new SlicedWork(steps, this.options.sliceMs, () => {
      this.work = undefined;
      this.sendPending();
      for (const command of this.waiting.splice(0)) this.receive(command);
    });
    this.work.start();
  }

  /** Drops the pending batch, unsent. */
  dropPending(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.queue = [];
  }

  /**
   * After a disconnect nothing more is posted: not the pending batch, not the rest of a resync
   * answer, and not entries queued later (e.g. by a replay still running).
   */
  stopSending(): void {
    this.isConnected = false;
    this.dropPending();
    this.work?.cancel();
    this.work = undefined;
    this.waiting = [];
  }

  /**
   * Posts events' JSON texts (each at most MAX_EVENT_LENGTH) in messages of about BATCH_LENGTH,
   * yielding after each event (see SlicedWork). `history`: the ring a panel connects to.
   */
  *postEvents(texts: Iterable<string>, history = false): Generator<void> {
    let batch: string[] = [];
    let length = 0;
    const send = () => {
      this.post({
        kind: 'events',
        storeId: this.storeId,
        data: `[${batch.join(',')}]`,
        ...(history ? { history } : {}),
      });
      batch = [];
      length = 0;
    };
    for (const text of texts) {
      if (length + text.length > MAX_EVENT_LENGTH) send();
      batch.push(text);
      length += text.length + 1;
      if (length >= BATCH_LENGTH) send();
      yield;
    }
    if (batch.length > 0) send();
  }

  /**
   * Posts a snapshot as of `seq` a step at a time: its text in chunks, then the lists it
   * counted.
   */
  *postSnapshot(seq: number, text: string, lists: readonly SnapshotList[]): Generator<void> {
    const { storeId } = this;
    const chunks = chunksOf(text);
    for (const [index, data] of chunks.entries()) {
      this.post({ kind: 'snapshot', storeId, seq, index, count: chunks.length, data });
      yield;
    }
    for (const { table, row, pks } of lists)
      for (const data of listParts(pks)) {
        this.post({
          kind: 'members',
          storeId,
          seq,
          table,
          ...(row === undefined ? {} : { row }),
          data,
        });
        yield;
      }
  }

  /** The batch timer fired: the batch goes, unless an answer being sent takes it along after. */
  private readonly batchDue = (): void => {
    this.timer = undefined;
    if (this.work === undefined) this.sendPending();
  };

  /** The batch timer fired, or sending cannot wait (`flush`). */
  private sendPending() {
    if (this.queue.length === 0) return;
    const entries = this.queue;
    this.queue = [];
    this.lastBatchAt = Date.now();
    this.send(this.peer.batch(entries));
  }

  private readonly onMessage = (event: MessageEvent) => {
    // Only our own window's messages, with our tag, version and a valid shape; never code.
    if (event.source !== this.target) return;
    if (!isExtensionCommand(event.data)) {
      this.refuse(event.data);
      return;
    }
    const command = event.data;
    if ('storeId' in command && command.storeId !== undefined && command.storeId !== this.storeId)
      return;
    this.receive(command);
  };

  /** Hands a command to the peer, or keeps it for after the answer being sent (see WAITS). */
  private receive(command: ExtensionCommand) {
    if (this.work !== undefined && WAITS.has(command.kind)) this.waiting.push(command);
    else this.peer.run(command);
  }

  /** Tells the panel what was wrong with an inspector command for this store (others: dropped). */
  private refuse(data: unknown) {
    const refusal = inspectorCommandRefusal(data);
    if (refusal?.storeId === this.storeId) this.answer(refusal.kind, refusal.problem);
  }

  /**
   * The store's greeting, the one message it posts on the window: it hands the content script
   * (listening since the document started) the end of the channel the store talks on. It comes
   * before the store records anything: seq 0.
   */
  private greet(contentEnd: MessagePort) {
    this.target.postMessage(pageMessage(this.hello(0)), '*', [contentEnd]);
  }

  /** Announces the store: on its own at start (greet), and `answering` a panel's connect. */
  private hello(seq: number, answering?: true): PageMessageBody {
    return {
      kind: 'hello',
      storeId: this.storeId,
      storeName: this.options.storeName,
      libraryVersion: LIBRARY_VERSION,
      seq,
      ...(answering ? { answering } : {}),
    };
  }
}
