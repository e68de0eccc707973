import { describe, expect, it } from 'vitest';
import { SESSION_FORMAT } from '../../../library/src/devtools/protocol/session.js';
import { persistRecording } from '../../src/panel/recorder/persist.js';
import { buildSession } from '../../src/panel/recorder/session.js';
import {
  extensionStorage,
  RECORDING_KEY,
  type StorageAreaLike,
} from '../../src/panel/recorder/storage.js';
import { createPanelStore } from '../../src/panel/store.js';
import { MemoryStorage } from './support.js';

/** Lets the storage promises settle. */
const flush = async () => {
  for (let turn = 0; turn < 5; turn++) await Promise.resolve();
};
const endpoints = (store: ReturnType<typeof createPanelStore>) =>
  store.getState().recorder.entries.map((entry) => entry.endpoint);

describe('persistRecording', () => {
  it('reads the saved list back when the panel opens, and saves every change', async () => {
    const storage = new MemoryStorage(
      buildSession([{ endpoint: 'Todo.update', args: [{ id: 1 }], body: { a: 1 }, method: 'PUT' }]),
    );
    const store = createPanelStore();
    persistRecording(store, storage);
    await flush();
    expect(store.getState().recorder.entries).toEqual([
      { id: 1, endpoint: 'Todo.update', args: [{ id: 1 }], body: { a: 1 }, method: 'PUT' },
    ]);

    store.getState().replaceRecorded([
      { endpoint: 'Todo.delete', args: [{ id: 3 }], response: '' },
      { endpoint: 'Todo.getList.push', args: [{}, {}], response: { id: 5 } },
    ]);
    await flush();
    expect(storage.value).toEqual({
      ...buildSession([
        { endpoint: 'Todo.delete', args: [{ id: 3 }], response: '' },
        { endpoint: 'Todo.getList.push', args: [{}, {}], response: { id: 5 } },
      ]),
      createdAt: expect.any(String),
    });

    store.getState().clearRecording();
    await flush();
    expect(storage.value).toBeUndefined();
    expect(storage.removes).toBe(1);
  });

  it('writes nothing when nothing changed, and the latest list when changes come quickly', async () => {
    const storage = new MemoryStorage();
    const store = createPanelStore();
    persistRecording(store, storage);
    await flush();
    expect(storage.saves + storage.removes).toBe(0);
    for (const endpoint of ['a', 'b', 'c'])
      store.getState().replaceRecorded([{ endpoint, args: [] }]);
    await flush();
    expect(storage.value).toMatchObject({ mutations: [{ endpoint: 'c' }] });
    expect(storage.saves).toBeLessThanOrEqual(2); // one in flight, then the latest
  });

  it('never overwrites a saved list it could not read, and says so', async () => {
    const storage = new MemoryStorage(buildSession([{ endpoint: 'precious', args: [] }]));
    storage.failLoad = 'storage is locked';
    const store = createPanelStore();
    persistRecording(store, storage);
    await flush();
    expect(store.getState().recorder.storageError).toBe(
      'The saved recording could not be read (storage is locked); changes are not saved.',
    );
    store.getState().replaceRecorded([{ endpoint: 'new', args: [] }]);
    await flush();
    expect(storage.saves).toBe(0);
    expect(storage.value).toMatchObject({ mutations: [{ endpoint: 'precious' }] });
  });

  it('says when the saved value is not a recording, and replaces it', async () => {
    const storage = new MemoryStorage({ format: SESSION_FORMAT, version: 99, mutations: [] });
    const store = createPanelStore();
    persistRecording(store, storage);
    await flush();
    expect(store.getState().recorder.storageError).toMatch(
      /^The saved recording could not be read \(the session is version 99/,
    );
    expect(endpoints(store)).toEqual([]);
    store.getState().replaceRecorded([{ endpoint: 'new', args: [] }]);
    await flush();
    expect(storage.value).toMatchObject({ version: 1, mutations: [{ endpoint: 'new' }] });
  });

  it('shows a failed save, and clears the message once a save works', async () => {
    const storage = new MemoryStorage();
    storage.failSave = 'QUOTA_BYTES quota exceeded';
    const store = createPanelStore();
    persistRecording(store, storage);
    await flush();
    store.getState().replaceRecorded([{ endpoint: 'a', args: [] }]);
    await flush();
    expect(store.getState().recorder.storageError).toBe(
      'The recording could not be saved (QUOTA_BYTES quota exceeded).',
    );
    storage.failSave = undefined;
    store.getState().replaceRecorded([{ endpoint: 'b', args: [] }]);
    await flush();
    expect(store.getState().recorder.storageError).toBeUndefined();
    expect(storage.value).toMatchObject({ mutations: [{ endpoint: 'b' }] });
  });

  it('stops saving once the panel closes', async () => {
    const storage = new MemoryStorage();
    const store = createPanelStore();
    const stop = persistRecording(store, storage);
    await flush();
    stop();
    store.getState().replaceRecorded([{ endpoint: 'a', args: [] }]);
    await flush();
    expect(storage.saves).toBe(0);
  });
});

describe('extensionStorage', () => {
  it('keeps the recording under one key of the storage area', async () => {
    const items: Record<string, unknown> = { other: 1 };
    const area: StorageAreaLike = {
      get: async (key) => (key in items ? { [key]: items[key] } : {}),
      set: async (values) => {
        Object.assign(items, values);
      },
      remove: async (key) => {
        delete items[key];
      },
    };
    const storage = extensionStorage(area);
    expect(await storage.load()).toBeUndefined();
    await storage.save({ format: SESSION_FORMAT });
    expect(items).toEqual({ other: 1, [RECORDING_KEY]: { format: SESSION_FORMAT } });
    expect(await storage.load()).toEqual({ format: SESSION_FORMAT });
    await storage.remove();
    expect(items).toEqual({ other: 1 });
  });
});
