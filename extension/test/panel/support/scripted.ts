import type { StoreEvent } from '../../../../library/src/devtools/protocol/effects.js';
import type {
  Encoded,
  PageMessage,
  RowsCommand,
  SnapshotState,
} from '../../../../library/src/devtools/protocol/messages.js';
import { eventsOf, hello, rows, snapshot } from '../../support/messages.js';
import { type MountedPanel, settle } from './harness.js';

/**
 * A page played by the test with hand-written messages, for a panel mounted over the fake tab
 * (this file holds no tests): the test decides what the page sends and when it answers, so it
 * can look at the panel in between.
 */
export class ScriptedPage {
  /** The store's latest seq. */
  seq = 0;
  /** How many of the panel's `rows` commands were answered. */
  private answered = 0;

  constructor(
    private readonly panel: MountedPanel,
    readonly storeId = 'store-1',
  ) {}

  /** The page posts these messages; they reach the panel, which renders. */
  async post(...messages: PageMessage[]): Promise<void> {
    const port = this.panel.ports.at(-1);
    for (const message of messages) port?.deliver({ type: 'page', message });
    await settle();
  }

  /** The content script connects; the store says hello and sends its snapshot. */
  async open(entities: SnapshotState['entities'] = {}): Promise<void> {
    this.panel.ports.at(-1)?.deliver({ type: 'content-connected', pageId: 'scripted' });
    await this.post(hello(this.storeId, this.seq), snapshot(this.storeId, this.seq, entities));
  }

  /** The store changes: one event per list of effects, numbered on from the latest seq. */
  async change(...events: (StoreEvent['effects'] | Omit<StoreEvent, 'seq' | 'time'>)[]) {
    const numbered = events.map((event) => {
      this.seq++;
      const body = Array.isArray(event)
        ? { action: { type: 'setResponse' }, effects: event }
        : event;
      return { seq: this.seq, time: 1_700_000_000_000 + this.seq, ...body } as StoreEvent;
    });
    await this.post(eventsOf(this.storeId, numbered));
  }

  /** Every `rows` command the panel sent, in order. */
  rowRequests(): RowsCommand[] {
    return this.panel.tab.commands.filter(
      (command): command is RowsCommand => command.kind === 'rows',
    );
  }

  /** The pks the panel asked for, in order. */
  requestedPks(table: string): string[] {
    return this.rowRequests()
      .filter((command) => command.table === table)
      .flatMap((command) => command.pks);
  }

  /** Answers every `rows` command not answered yet, with the row `rowOf` gives. */
  async answer(rowOf: (table: string, pk: string) => Encoded): Promise<void> {
    const pending = this.rowRequests().slice(this.answered);
    this.answered += pending.length;
    await this.post(
      ...pending.map((command) =>
        rows(
          this.storeId,
          this.seq,
          command.table,
          Object.fromEntries(command.pks.map((pk) => [pk, rowOf(command.table, pk)])),
        ),
      ),
    );
  }
}
