import { cleanup, fireEvent, screen, within } from '@testing-library/preact';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encode } from '../../../library/src/devtools/page/encode.js';
import { isPageMessage } from '../../../library/src/devtools/protocol/validate.js';
import { plain } from '../../../library/test/fixtures.js';
import { isCollectionKey } from '../../src/panel/model.js';
import { PageForger } from '../support/forger.js';
import { forPage, hostileMessage } from '../support/hostile.js';
import { plainTables } from '../support/tables.js';
import { FakeServer, TodoApp, TodoResource } from './support/app.js';
import { FOUR_TITLES } from './support/env.js';
import { mountPanel, restoreGlobals, settle, storeEnd } from './support/harness.js';

/**
 * The whole panel, rendered, under a hostile script on the page: 10 runs of 1,000 generated
 * messages (10,000 in all) posted while the real app works, by every way a page has
 * (PageForger: the real store's own port included, as a script that ran before the library can), with every view
 * opened and gone through (events expanded, entities, collection rows and recorded mutations
 * shown) between batches, for the real store and for another store the selector lists. The Recorder records all along, so forged
 * mutations are recorded and shown too.
 */

const RUNS = 10;
const PER_RUN = 1000;
/** Messages posted between two rounds through the views. */
const BATCH = 200;
/** How many items of each list a round opens. */
const OPENED = 4;

async function openTab(name: string) {
  fireEvent.click(screen.getByRole('tab', { name }));
  await settle();
}

/** The options of a list, if it is shown. */
const options = (name: string | RegExp) => {
  const list = screen.queryByRole('listbox', { name });
  return list ? within(list).getAllByRole('option') : [];
};

/**
 * Opens every view and the first items of each of its lists. (fireEvent renders at once; the
 * panel's rows requests are let through once per view.)
 */
async function goThroughTheViews() {
  await openTab('Collections');
  for (const row of options('Collection rows').slice(0, OPENED)) fireEvent.click(row);
  await openTab('Entities');
  const types = screen.queryByRole('combobox', { name: 'Entity type' }) as HTMLSelectElement | null;
  for (const type of [...(types?.options ?? [])].slice(0, OPENED)) {
    fireEvent.change(types as HTMLSelectElement, { target: { value: type.value } });
    for (const entity of options(/ entities$/).slice(0, OPENED)) fireEvent.click(entity);
  }
  await settle();
  await openTab('Results');
  for (const result of options('Results').slice(0, OPENED)) fireEvent.click(result);
  await settle();
  await openTab('Timeline');
  for (const event of options('Timeline').filter((row) => row.hasAttribute('aria-expanded')))
    if (event.getAttribute('aria-expanded') === 'false') fireEvent.click(event);
  await openTab('Recorder');
  for (const entry of options('Recorded mutations').slice(0, OPENED)) fireEvent.click(entry);
  await settle();
}

/** Picks the `nth` store the selector lists (in turn), if it lists any. */
async function pickStore(nth: number) {
  const select = within(screen.getByRole('banner')).queryByRole(
    'combobox',
  ) as HTMLSelectElement | null;
  const listed = [...(select?.options ?? [])].map((option) => option.value);
  if (!select || listed.length === 0) return;
  fireEvent.change(select, { target: { value: listed[nth % listed.length] } });
  await settle();
}

describe('the panel under a hostile script, fuzzed', () => {
  it(`renders every view through ${RUNS * PER_RUN} messages, and follows the real store`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(hostileMessage, { minLength: PER_RUN, maxLength: PER_RUN }),
        async (hostile) => {
          const server = new FakeServer(FOUR_TITLES);
          server.install();
          const panel = mountPanel();
          const app = new TodoApp();
          let produced = 0;
          app.store.observe(() => produced++);
          const errors: unknown[] = [];
          const onError = (event: ErrorEvent) => errors.push(event.error);
          window.addEventListener('error', onError);
          try {
            await app.controller.fetch(TodoResource.getList, { userId: 1 });
            await settle();
            panel.store.getState().setRecording(true);
            const storeId = app.devtools.storeId;
            const forger = new PageForger(
              {
                post: (message) => window.postMessage(message, '*'),
                greet: (message) => {
                  const { port1, port2 } = new MessageChannel();
                  window.postMessage(message, '*', [port2]);
                  return port1;
                },
              },
              { id: storeId, port: storeEnd(storeId) },
            );
            for (let start = 0; start < PER_RUN; start += BATCH) {
              for (const item of hostile.slice(start, start + BATCH))
                forger.post(forPage(item, storeId));
              await app.controller.fetch(TodoResource.getList.push, { userId: 1 }, { title: 'x' });
              await settle();
              await pickStore(start / BATCH);
              await goThroughTheViews();
              panel.store.getState().selectStore(storeId);
              await goThroughTheViews();
            }
            // The script stops; the app goes on.
            await app.controller.fetch(TodoResource.getList, { userId: 1 });
            await settle();
            await settle();

            expect(errors).toEqual([]);
            for (const message of panel.tab.forwarded) expect(isPageMessage(message)).toBe(true);
            const state = panel.store.getState();
            expect(state.selectedStoreId).toBe(storeId);
            const view = state.stores[storeId];
            expect(view?.lastSeq).toBe(produced);
            expect(view?.events.map((event) => event.seq)).toEqual(
              Array.from({ length: produced }, (_, index) => index + 1),
            );
            const entities = encode(plain(app.store.getState().entities)) as Record<
              string,
              unknown
            >;
            expect(plainTables(view?.collections ?? {})).toEqual(
              Object.fromEntries(Object.entries(entities).filter(([key]) => isCollectionKey(key))),
            );
          } finally {
            window.removeEventListener('error', onError);
            app.close();
            panel.unmount();
            cleanup();
            restoreGlobals();
          }
        },
      ),
      // A run takes seconds: a failure is reported with its seed rather than shrunk.
      { numRuns: RUNS, endOnFailure: true },
    );
  }, 600_000);
});
