// @vitest-environment jsdom
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  isExtensionCommand,
  isPageMessage,
} from '../../../library/src/devtools/protocol/validate.js';
import type { BackgroundToPanel } from '../../src/shared/ports.js';
import { PageForger } from '../support/forger.js';
import { forPage, hostileMessage } from '../support/hostile.js';
import { MAX_PORT_MESSAGE_LENGTH } from '../support/ports.js';
import { expectInSync, Panel, Tab, World } from '../support/world.js';

/**
 * A hostile script on the page, fuzzed: 20 runs of 500 generated messages (10,000 in all) posted
 * between the real store's own changes, by every way a page has (PageForger: the real store's
 * own port included, as a script that ran before the library can), through the real parts (bridge,
 * content script, background, panel connection and store) over fake ports. Another tab, with
 * no such script, is watched by a panel of its own all along.
 */

const RUNS = 20;
const PER_RUN = 500;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Whether the port can carry a message (Chrome serializes runtime messages as JSON). */
function carriable(message: unknown): boolean {
  try {
    return JSON.stringify({ type: 'page', message }).length <= MAX_PORT_MESSAGE_LENGTH;
  } catch {
    return false;
  }
}

/** The page messages a panel's ports delivered. */
function delivered(panel: Panel): unknown[] {
  return panel.ports.flatMap((port) =>
    (port.received as BackgroundToPanel[]).flatMap((message) =>
      message.type === 'page' ? [message.message] : [],
    ),
  );
}

describe('a hostile script on the page, fuzzed', () => {
  it(`${RUNS * PER_RUN} messages: none reaches a panel invalid, nothing throws, both stores are followed`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(hostileMessage, { minLength: PER_RUN, maxLength: PER_RUN }),
        async (hostile) => {
          const world = new World();
          const tab = new Tab(world, 1);
          const quiet = new Tab(world, 2);
          const errors: unknown[] = [];
          for (const each of [tab, quiet])
            each.page.window.addEventListener('error', (event) => errors.push(event.error));
          const panel = new Panel(world, 1);
          const other = new Panel(world, 2);
          try {
            tab.activity(1);
            quiet.activity(1);
            await world.run(200);

            const { page } = tab;
            const forger = new PageForger(
              {
                post: (message) => page.window.postMessage(message, '*'),
                greet: (message) => page.greet(message),
              },
              { id: tab.bridge.storeId, port: page.storeEnd(tab.bridge.storeId) },
            );
            let unforwardable = 0;
            for (const [index, item] of hostile.entries()) {
              const message = forPage(item, tab.bridge.storeId);
              // Posting clones it, as a browser does.
              if (isPageMessage(structuredClone(message)) && !carriable(message)) unforwardable++;
              forger.post(message);
              if (index % 50 === 49) {
                tab.activity(1);
                quiet.activity(1);
                await world.run(60);
              }
            }
            // The script stops; the stores go on.
            await world.run(1000);
            tab.activity(1);
            quiet.activity(1);
            await world.run(1000);

            expect(errors).toEqual([]);
            expect(tab.relay.dropped).toBe(unforwardable);
            expect(tab.warnings).toHaveLength(unforwardable);
            // Only valid messages reached a panel, and only its own tab's.
            for (const message of delivered(panel)) expect(isPageMessage(message)).toBe(true);
            for (const message of delivered(other))
              expect(message).toMatchObject({ storeId: quiet.bridge.storeId });
            // Only valid commands went to a page's content script; none for the other tab's stores.
            for (const command of tab.ports.flatMap((port) => port.received))
              expect(isExtensionCommand(command)).toBe(true);
            for (const command of quiet.ports.flatMap((port) => port.received))
              expect([undefined, quiet.bridge.storeId]).toContain(
                isExtensionCommand(command) ? (command as { storeId?: string }).storeId : 'invalid',
              );
            // The real stores are still followed, and the real one is shown.
            expect(panel.store.getState().selectedStoreId).toBe(tab.bridge.storeId);
            await expectInSync(panel, tab);
            await expectInSync(other, quiet);
            expect(other.store.getState().storeOrder).toEqual([quiet.bridge.storeId]);
          } finally {
            panel.close();
            other.close();
            tab.unload();
            quiet.unload();
          }
        },
      ),
      // A run takes a second or two: a failure is reported with its seed rather than shrunk.
      { numRuns: RUNS, endOnFailure: true },
    );
  }, 300_000);
});
