import type { EndpointInterface } from '../../endpoint/types.js';
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
/** Results (or metas) encoded between two yields. */
const VALUES_PER_STEP = 100;
/** Collection rows counted between two yields. */
const ROWS_PER_STEP = 2000;

/**
 * A list a snapshot counts and sends after its text, in `members` messages: the pks of an entity
 * table, or the members of a collection row (`row`).
 */
export interface SnapshotList {
  table: string;
  row?: string;
  pks: Iterable<string>;
}

/**
 * A snapshot of `state`, made step by step: it yields after each step, for SlicedWork. The state
 * is an immutable snapshot, so what is made of it is consistent however many tasks that takes.
 *
 * `text` is the JSON of a SnapshotState: what a panel's first views need, small at any scale:
 * every stored result with its meta, each entity table's size and each collection row's. The
 * lists those sizes count (`lists`: collection rows first, as the views show them first) follow
 * it, in parts of about a relay message (`listParts`). A panel asks for the entity rows it shows
 * (`rows`): at 100k entities the rows are tens of MB, and most are never looked at.
 */
export function* snapshotParts(
  state: State,
  /** The name an endpoint is recorded by (see EndpointNames). */
  nameOf: (endpoint: EndpointInterface) => string,
): Generator<void, { text: string; lists: SnapshotList[] }> {
  const tableSizes: [string, string][] = [];
  const collectionSizes: [string, string][] = [];
  const collectionLists: SnapshotList[] = [];
  const entityLists: SnapshotList[] = [];
  for (const [table, rows] of state.entities) {
    if (!(rows.values().next().value instanceof MemberList)) {
      tableSizes.push([table, String(rows.size)]);
      entityLists.push({ table, pks: rows.keys() });
      continue;
    }
    const sizes: [string, string][] = [];
    for (const [row, members] of rows) {
      if (!(members instanceof MemberList)) continue;
      sizes.push([row, String(members.length)]);
      collectionLists.push({ table, row, pks: members });
      if (sizes.length % ROWS_PER_STEP === 0) yield;
    }
    collectionSizes.push([table, objectText(sizes)]);
    yield;
  }
  const endpoints = yield* encodedEntries(state.endpoints);
  const meta = yield* encodedEntries(state.meta);
  const optimistic = state.optimistic.map(({ key, endpoint, fetchedAt }) => ({
    key,
    endpoint: nameOf(endpoint),
    fetchedAt,
  }));
  const text = objectText([
    ['entities', '{}'],
    ['tableSizes', objectText(tableSizes)],
    ['collectionSizes', objectText(collectionSizes)],
    ['endpoints', objectText(endpoints)],
    ['meta', objectText(meta)],
    ['optimistic', JSON.stringify(optimistic)],
  ]);
  return { text, lists: [...collectionLists, ...entityLists] };
}

/**
 * A list's pks as the JSON texts of consecutive parts of it, each about RELAY_MESSAGE_LENGTH
 * long (a pk longer than that is a part of its own).
 */
export function* listParts(pks: Iterable<string>): Generator<string> {
  let part: string[] = [];
  let length = 0;
  for (const pk of pks) {
    const text = JSON.stringify(pk);
    if (part.length > 0 && length + text.length >= RELAY_MESSAGE_LENGTH) {
      yield `[${part.join(',')}]`;
      part = [];
      length = 0;
    }
    part.push(text);
    length += text.length + 1;
  }
  if (part.length > 0) yield `[${part.join(',')}]`;
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
