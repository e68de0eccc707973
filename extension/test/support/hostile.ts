import fc from 'fast-check';
import {
  MAX_SNAPSHOT_CHUNKS,
  MAX_VALUE_DEPTH,
  PROTOCOL_TAG,
  PROTOCOL_VERSION,
} from '../../../library/src/devtools/protocol/messages.js';

/**
 * Messages a hostile script of the page posts on the window, for the fuzz tests (this file holds
 * no tests): anything at all, envelopes with fields of the wrong type, and well-formed messages
 * whose contents are made to hurt (names like prototype members, seqs just ahead of the real
 * store or far beyond it, snapshots announcing millions of chunks, tagged values without what
 * their tag needs, values nested past what can be written again).
 *
 * `LEGIT` stands for the id of the page's real store, which the test only knows once the store
 * exists: `forPage` puts it in, so that many forged messages speak for the real store.
 */
export const LEGIT = '@legit-store@';

/** Names a page may choose: prototype members, markup, and anything else. */
const name = fc.oneof(
  fc.constantFrom(
    LEGIT,
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
    'valueOf',
    'Todo',
    '[Todo]',
    '{"list":"all"}',
    '1',
    '<img src=x onerror=alert(1)>',
  ),
  fc.string({ maxLength: 8 }),
);

/** Store ids: the real store's often, so that forged messages speak for it. */
const storeId = fc.oneof(
  { weight: 2, arbitrary: fc.constant(LEGIT) },
  { weight: 3, arbitrary: name },
);

/** Seqs near the real store's (a fuzz run makes about a hundred events), and extremes. */
const seq = fc.oneof(
  fc.nat({ max: 120 }),
  fc.constantFrom(0, 2 ** 31, Number.MAX_SAFE_INTEGER),
  fc.constantFrom(-1, 1.5, Number.NaN),
);

const TAGS = [
  'undefined',
  'number',
  'bigint',
  'date',
  'map',
  'set',
  'instance',
  'error',
  'function',
  'symbol',
  'object',
  'cycle',
  'truncated',
  '__proto__',
  'toString',
];

/** A value nested `depth` lists deep. */
const nested = (depth: number): unknown => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);

/** Carried values: plain JSON, tagged values well-formed or not, and values nested too deep. */
const value: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.jsonValue({ maxDepth: 2 }),
    fc.record({ '@t': fc.constantFrom(...TAGS) }),
    fc.record(
      {
        '@t': fc.constantFrom(...TAGS),
        v: tie('value'),
        entries: fc.oneof(
          fc.array(fc.tuple(tie('value'), tie('value')), { maxLength: 2 }),
          tie('value'),
        ),
        values: tie('value'),
        fields: tie('value'),
        class: tie('value'),
        name: tie('value'),
        message: tie('value'),
        reason: tie('value'),
        preview: tie('value'),
      },
      { requiredKeys: ['@t'] },
    ),
    fc.constant(nested(MAX_VALUE_DEPTH)),
  ),
})).value;

const strings = fc.array(name, { maxLength: 4 });

/** Effects: of every type, with fields of the right or the wrong type. */
const effect = fc.oneof(
  fc.record({ type: fc.constant('entities-added'), entity: name, pks: strings }),
  fc.record({
    type: fc.constant('entities-updated'),
    entity: name,
    updates: fc.array(
      fc.record({
        pk: name,
        fields: fc.array(fc.record({ field: name, before: value, after: value }), {
          maxLength: 3,
        }),
      }),
      { maxLength: 3 },
    ),
  }),
  fc.record({
    type: fc.constant('entity-invalidated'),
    entity: name,
    pk: name,
    from: value,
    via: fc.constantFrom('response', 'url-params', 'eval'),
  }),
  fc.record({
    type: fc.constant('collection-changed'),
    collection: name,
    row: name,
    kind: fc.constantFrom('push', 'unshift', 'page-merge', 'add', 'replace', 'invalidate', 'x'),
    lengthBefore: fc.nat(),
    lengthAfter: fc.nat(),
    inserted: fc.array(fc.record({ index: fc.nat({ max: 5 }), pks: strings }), { maxLength: 2 }),
    duplicates: strings,
    removed: strings,
    members: fc.option(strings, { nil: undefined }),
  }),
  fc.record({
    type: fc.constantFrom('result-stored', 'result-error'),
    key: name,
    endpoint: name,
    result: value,
    error: value,
    kept: fc.oneof(fc.boolean(), value),
    expiresAt: fc.oneof(fc.nat(), fc.constant(Date.now() + 60_000)),
  }),
  fc.record({ type: fc.constantFrom('result-invalidated', 'result-expired'), key: name }),
  fc.record({
    type: fc.constantFrom('result-suspends', 'result-lost-member'),
    key: name,
    endpoint: name,
  }),
  fc.record({ type: fc.constant('store-reset') }),
  fc.record({
    type: fc.constant('replay-result'),
    replayId: name,
    index: seq,
    endpoint: name,
    ok: fc.boolean(),
    error: fc.option(fc.string(), { nil: undefined }),
  }),
  fc.dictionary(fc.string({ maxLength: 6 }), value, { maxKeys: 3 }),
);

const action = fc.record(
  {
    type: fc.constantFrom('fetch', 'setResponse', 'invalidate', 'reset', 'replay', '__proto__'),
    endpoint: fc.oneof(name, fc.constant('Todo.getList.push')),
    key: name,
    method: fc.constantFrom('GET', 'POST', 'DELETE'),
    url: name,
    mutation: fc.boolean(),
    args: fc.array(value, { maxLength: 3 }),
    body: value,
    response: value,
    error: value,
    duration: fc.nat(),
    optimistic: fc.constantFrom('applied', 'committed', 'rolled-back', 'maybe'),
    replayId: name,
  },
  { requiredKeys: ['type'] },
);

const storeEvent = fc.record(
  {
    seq,
    time: fc.oneof(fc.nat(), fc.constant(Date.now())),
    action,
    effects: fc.array(effect, { maxLength: 4 }),
    effectsOmitted: fc.boolean(),
  },
  { requiredKeys: ['seq', 'time', 'action', 'effects'] },
);

/** The text of an events message: a list of events, or not quite. */
const eventsText = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.array(storeEvent, { maxLength: 3 }).map((list) => JSON.stringify(list)),
  },
  fc.constantFrom('', '[', 'null', '{}', '[1]', `[${'['.repeat(5000)}${']'.repeat(5000)}]`),
  fc.string({ maxLength: 20 }),
);

const snapshotText = fc.oneof(
  fc
    .record({
      entities: fc.dictionary(name, fc.dictionary(name, value, { maxKeys: 3 }), { maxKeys: 3 }),
      endpoints: fc.dictionary(name, value, { maxKeys: 3 }),
      meta: fc.dictionary(name, value, { maxKeys: 2 }),
      entitiesMeta: fc.constant({}),
      indexes: fc.constant({}),
      optimistic: fc.constant([]),
    })
    .map((state) => JSON.stringify(state)),
  // A snapshot whose lists follow it (see membersText), with sizes honest or not.
  fc
    .record({
      entities: fc.constant({}),
      tableSizes: fc.dictionary(name, fc.oneof(fc.nat({ max: 5 }), fc.constant(-1)), {
        maxKeys: 3,
      }),
      collectionSizes: fc.dictionary(name, fc.dictionary(name, fc.nat({ max: 5 })), {
        maxKeys: 2,
      }),
      endpoints: fc.dictionary(name, value, { maxKeys: 3 }),
      meta: fc.constant({}),
      optimistic: fc.constant([]),
    })
    .map((state) => JSON.stringify(state)),
  fc.constantFrom('{}', 'null', '[]', '{"entities":null}', '{"entities":'),
  fc.string({ maxLength: 20 }),
);

/** The text of a members message: a list of pks, or not quite. */
const membersText = fc.oneof(
  { weight: 4, arbitrary: fc.array(name, { maxLength: 8 }).map((pks) => JSON.stringify(pks)) },
  fc.constantFrom('', '[', 'null', '{}', '[1]', '[null]'),
  fc.string({ maxLength: 20 }),
);

const envelope = {
  tag: fc.constant(PROTOCOL_TAG),
  v: fc.constant(PROTOCOL_VERSION),
  source: fc.constant('page'),
};

/** Messages whose envelope is right: most pass the validators, some not quite. */
const pageMessage = fc.oneof(
  fc.record(
    {
      ...envelope,
      kind: fc.constant('hello'),
      storeId,
      storeName: name,
      libraryVersion: fc.constantFrom('0.1.0', ''),
      seq,
      answering: fc.boolean(),
    },
    {
      requiredKeys: ['tag', 'v', 'source', 'kind', 'storeId', 'storeName', 'libraryVersion', 'seq'],
    },
  ),
  fc.record(
    {
      ...envelope,
      kind: fc.constant('events'),
      storeId,
      data: eventsText,
      history: fc.boolean(),
    },
    { requiredKeys: ['tag', 'v', 'source', 'kind', 'storeId', 'data'] },
  ),
  fc.record({
    ...envelope,
    kind: fc.constant('snapshot'),
    storeId,
    seq,
    index: fc.oneof(fc.nat({ max: 3 }), fc.constant(MAX_SNAPSHOT_CHUNKS)),
    count: fc.oneof(
      fc.integer({ min: 1, max: 3 }),
      fc.constantFrom(MAX_SNAPSHOT_CHUNKS, 120_000_000),
    ),
    data: snapshotText,
  }),
  fc.record(
    {
      ...envelope,
      kind: fc.constant('members'),
      storeId,
      seq,
      table: name,
      row: name,
      data: membersText,
    },
    { requiredKeys: ['tag', 'v', 'source', 'kind', 'storeId', 'seq', 'table', 'data'] },
  ),
  fc.record({
    ...envelope,
    kind: fc.constant('rows'),
    storeId,
    seq,
    table: name,
    rows: fc.dictionary(name, value, { maxKeys: 3 }),
  }),
  // Results shown as read, loading and polled, under any name; frequencies of any number.
  fc.record(
    {
      ...envelope,
      kind: fc.constant('readers'),
      storeId,
      readers: fc.dictionary(name, fc.nat({ max: 3 }), { maxKeys: 3 }),
      forced: fc.dictionary(name, fc.constantFrom('loading', 'error'), { maxKeys: 2 }),
      fetching: strings,
      polling: fc.dictionary(
        name,
        fc.oneof(
          fc.constantFrom(1, 500, 10_000, 9e15, 0, -1, Number.NaN, Number.POSITIVE_INFINITY),
          fc.double(),
        ),
        { maxKeys: 3 },
      ),
    },
    { requiredKeys: ['tag', 'v', 'source', 'kind', 'storeId', 'readers', 'forced', 'fetching'] },
  ),
);

/** One field of a message replaced by anything. */
const broken = fc
  .tuple(
    pageMessage,
    fc.constantFrom('tag', 'v', 'source', 'kind', 'storeId', 'seq', 'data'),
    fc.anything(),
  )
  .map(([message, field, junk]) => ({ ...message, [field]: junk }));

export interface HostileMessage {
  message: unknown;
  /** Posted with one more field holding the message itself: a cycle no port can carry. */
  cyclic: boolean;
}

/** What a hostile script posts: valid-shaped messages mostly, junk and broken envelopes too. */
export const hostileMessage: fc.Arbitrary<HostileMessage> = fc.record({
  message: fc.oneof(
    { weight: 6, arbitrary: pageMessage },
    { weight: 2, arbitrary: broken },
    {
      weight: 1,
      arbitrary: fc.anything({ withBigInt: true, withMap: true, withSet: true, withDate: true }),
    },
    {
      weight: 1,
      arbitrary: pageMessage.map((message) => ({ ...message, extra: 10n })),
    },
  ),
  cyclic: fc.nat({ max: 9 }).map((draw) => draw === 0),
});

/** The message as the page posts it: the real store's id put in, a cycle made if asked. */
export function forPage({ message, cyclic }: HostileMessage, legitStoreId: string): unknown {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return message;
  const posted: Record<string, unknown> = { ...message };
  if (posted.storeId === LEGIT) posted.storeId = legitStoreId;
  if (cyclic) posted.self = posted;
  return posted;
}
