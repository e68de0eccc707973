import { MemberList } from '../../normalize/memberList.js';
import type { State } from '../../store/state.js';
import { type EncodeLimits, encode } from './encode.js';

/** Each stored result and meta in a snapshot is cut past this (a result is most often pks). */
const VALUE_LIMITS: EncodeLimits = { maxSize: 1024 * 1024, maxItems: 100_000 };
/**
 * The length of the messages the page posts a long answer in (a snapshot's chunks, a batch of
 * events), well below the protocol's largest (SNAPSHOT_CHUNK_LENGTH): the content script's relay
 * of one message is a task of the page's thread, which takes about 1 ms per 10 KB (Chrome
 * serializes it for the port).
 */
export const RELAY_MESSAGE_LENGTH = 64 * 1024;
/** Pks gathered between two yields. */
const PKS_PER_STEP = 2000;
/** Results (or metas) encoded between two yields. */
const VALUES_PER_STEP = 100;

/**
 * The JSON text of a snapshot of `state` (a SnapshotState), made step by step: it yields after
 * each step, for SlicedWork. The state is an immutable snapshot, so its text is consistent
 * however many tasks making it takes.
 *
 * It holds what a panel's first views need: every collection row with its members, every stored
 * result with its meta, and for each entity table its pks only. A panel asks for the rows it
 * shows (`rows`): at 100k entities the rows are tens of MB, and most are never looked at.
 */
export function* snapshotText(state: State): Generator<void, string> {
  const collections: [string, string][] = [];
  const pks: [string, string][] = [];
  for (const [key, table] of state.entities) {
    const rows: string[] = [];
    const entityPks: string[] = [];
    for (const [pk, row] of table) {
      if (row instanceof MemberList) {
        // A collection row: its members, a row at a time (one can hold many thousands).
        rows.push(`${JSON.stringify(pk)}:${JSON.stringify(row.toArray())}`);
        yield;
      } else {
        entityPks.push(pk);
        if (entityPks.length % PKS_PER_STEP === 0) yield;
      }
    }
    if (rows.length > 0) collections.push([key, `{${rows.join(',')}}`]);
    else pks.push([key, JSON.stringify(entityPks)]);
    yield;
  }
  const endpoints = yield* encodedEntries(state.endpoints);
  const meta = yield* encodedEntries(state.meta);
  const optimistic = state.optimistic.map(({ key, endpoint, fetchedAt }) => ({
    key,
    endpoint: endpoint.name,
    fetchedAt,
  }));
  return objectText([
    ['entities', objectText(collections)],
    ['pks', objectText(pks)],
    ['endpoints', objectText(endpoints)],
    ['meta', objectText(meta)],
    ['optimistic', JSON.stringify(optimistic)],
  ]);
}

/** Each entry of a map as a key and the JSON text of its encoded value. */
function* encodedEntries(map: Iterable<[string, unknown]>): Generator<void, [string, string][]> {
  const texts: [string, string][] = [];
  for (const [key, value] of map) {
    texts.push([key, JSON.stringify(encode(value, VALUE_LIMITS))]);
    if (texts.length % VALUES_PER_STEP === 0) yield;
  }
  return texts;
}

/** The JSON text of an object whose values are already JSON texts. */
function objectText(entries: readonly [string, string][]): string {
  return `{${entries.map(([key, text]) => `${JSON.stringify(key)}:${text}`).join(',')}}`;
}

/**
 * A snapshot's text cut into chunks of at most RELAY_MESSAGE_LENGTH. A chunk never ends between
 * the two halves of a surrogate pair (an emoji): a relay that encodes each chunk as UTF-8
 * (Chrome's extension messaging) would turn lone halves into U+FFFD. A chunk that would end on a
 * high surrogate ends one unit earlier.
 */
export function chunksOf(text: string): string[] {
  const chunks: string[] = [];
  for (let start = 0; start < text.length; ) {
    let end = Math.min(start + RELAY_MESSAGE_LENGTH, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    chunks.push(text.slice(start, end));
    start = end;
  }
  return chunks;
}
