import type {
  Effect,
  FieldChange,
  StoreEvent,
} from '../../../library/src/devtools/protocol/effects.js';
import { isOptimisticPk, labelOfFields } from '../../../library/src/devtools/protocol/labels.js';
import { type Encoded, MAX_VALUE_DEPTH } from '../../../library/src/devtools/protocol/messages.js';
import { isObject } from '../shared/ports.js';
import { isInvalidRow, type Row, UNLOADED } from './model.js';

/**
 * Turns carried values into short, readable TEXT. The panel never inserts what the page sent as
 * HTML: every string made here ends up in a text node or an attribute.
 */

export type Tagged = Extract<Encoded, { '@t': string }>;
export type PlainObject = { [key: string]: Encoded };

const isText = (value: unknown) => typeof value === 'string';
const isOptionalText = (value: unknown) => value === undefined || typeof value === 'string';
const isOptionalNumber = (value: unknown) => value === undefined || typeof value === 'number';

/**
 * What each tag needs to be written as that tag: the page (or a session file) may send any
 * JSON, so a tagged value is checked here, where it is read. One without what its tag needs, or
 * with a tag the encoder does not make, is written as the plain object it is.
 */
const TAG_SHAPES: { [Tag in Tagged['@t']]: (value: PlainObject) => boolean } = {
  undefined: () => true,
  number: (value) => isText(value.v),
  bigint: (value) => isText(value.v),
  date: (value) => isText(value.v),
  map: (value) =>
    Array.isArray(value.entries) &&
    value.entries.every((entry) => Array.isArray(entry) && entry.length === 2),
  set: (value) => Array.isArray(value.values),
  instance: (value) => isText(value.class) && isObject(value.fields),
  error: (value) => isText(value.name) && isText(value.message) && isOptionalNumber(value.status),
  function: (value) => isText(value.name),
  symbol: (value) => isText(value.description),
  object: (value) => isObject(value.fields),
  cycle: () => true,
  truncated: (value) =>
    isText(value.reason) && isOptionalNumber(value.omitted) && isOptionalText(value.preview),
};

export function isTagged(value: Encoded): value is Tagged {
  if (!isObject(value)) return false;
  const tag = (value as PlainObject)['@t'];
  return (
    typeof tag === 'string' &&
    Object.hasOwn(TAG_SHAPES, tag) &&
    TAG_SHAPES[tag as Tagged['@t']](value as PlainObject)
  );
}

export function isPlainObject(value: Encoded | undefined): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isTagged(value);
}

/** The fields of a plain object value, or undefined for anything else. */
export function plainFields(value: Encoded | undefined): PlainObject | undefined {
  return isPlainObject(value) ? (value as PlainObject) : undefined;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const propertyName = (key: string) => (IDENTIFIER.test(key) ? key : JSON.stringify(key));

/** Stops writing once `limit` characters are out, so huge values cost little to show. */
class TextBudget {
  text = '';
  constructor(private readonly limit: number) {}
  get full(): boolean {
    return this.text.length >= this.limit;
  }
  add(part: string): void {
    if (!this.full) this.text += part;
  }
  result(): string {
    return this.text.length > this.limit ? `${this.text.slice(0, this.limit - 1)}…` : this.text;
  }
}

function writeList(out: TextBudget, open: string, items: (() => void)[], close: string) {
  out.add(open);
  items.forEach((write, index) => {
    if (out.full) return;
    if (index > 0) out.add(', ');
    write();
  });
  out.add(close);
}

function writeFields(out: TextBudget, fields: PlainObject, depth: number) {
  const entries = Object.entries(fields);
  if (entries.length === 0) return out.add('{}');
  writeList(
    out,
    '{ ',
    entries.map(([key, value]) => () => {
      out.add(`${propertyName(key)}: `);
      write(out, value, depth);
    }),
    ' }',
  );
}

function writeTagged(out: TextBudget, value: Tagged, depth: number) {
  switch (value['@t']) {
    case 'undefined':
      return out.add('undefined');
    case 'number':
      return out.add(value.v);
    case 'bigint':
      return out.add(`${value.v}n`);
    case 'date':
      return out.add(`Date(${value.v})`);
    case 'map':
      return writeList(
        out,
        `Map(${value.entries.length}) { `,
        value.entries.map(([key, item]) => () => {
          write(out, key, depth);
          out.add(' => ');
          write(out, item, depth);
        }),
        ' }',
      );
    case 'set':
      return writeList(
        out,
        `Set(${value.values.length}) { `,
        value.values.map((item) => () => write(out, item, depth)),
        ' }',
      );
    case 'instance':
      out.add(`${value.class} `);
      return writeFields(out, value.fields, depth);
    case 'error':
      return out.add(
        `${value.name}: ${value.message}${value.status === undefined ? '' : ` (status ${value.status})`}`,
      );
    case 'function':
      return out.add(`ƒ ${value.name || 'anonymous'}()`);
    case 'symbol':
      return out.add(`Symbol(${value.description})`);
    case 'object':
      return writeFields(out, value.fields, depth);
    case 'cycle':
      return out.add('[cycle]');
    case 'truncated': {
      const omitted = value.omitted === undefined ? '' : `, ${value.omitted} omitted`;
      const preview = value.preview === undefined ? '' : ` ${value.preview}`;
      return out.add(`…${preview} [cut: ${value.reason}${omitted}]`);
    }
  }
}

/** Writes one value; `depth` counts the lists and objects around it. */
function write(out: TextBudget, value: Encoded, depth = 0) {
  if (out.full) return;
  if (value === null || typeof value !== 'object') {
    out.add(typeof value === 'string' ? JSON.stringify(value) : String(value));
  } else if (depth >= MAX_VALUE_DEPTH) {
    // Deeper than any value the page encodes: only a hand-made one, and a recursion that deep
    // could run out of stack.
    out.add('…');
  } else if (Array.isArray(value)) {
    writeList(
      out,
      '[',
      value.map((item) => () => write(out, item, depth + 1)),
      ']',
    );
  } else if (isTagged(value)) {
    writeTagged(out, value, depth + 1);
  } else {
    writeFields(out, value, depth + 1);
  }
}

/** One value as text, like a console shows it (strings quoted), cut at `limit` characters. */
export function formatValue(value: Encoded | undefined, limit = 200): string {
  if (value === undefined) return 'undefined';
  const out = new TextBudget(limit);
  write(out, value);
  return out.result();
}

/**
 * A normalized result, as `formatValue` writes it, except a collection's row key (what a list
 * endpoint's result is): written as its arguments, `userId: "1"`, not as escaped JSON.
 */
export function formatResult(value: Encoded | undefined, limit = 200): string {
  if (typeof value === 'string' && value.startsWith('{')) {
    const args = formatRowKey(value);
    if (args !== value) return `list of ${args}`;
  }
  return formatValue(value, limit);
}

/**
 * A short human label for an entity row (its title or name), or '' when it has none (or has not
 * come from the page yet).
 */
export function entityLabel(row: Row | undefined): string {
  if (row === UNLOADED) return '';
  const fields = plainFields(row);
  return !fields || isInvalidRow(row) ? '' : labelOfFields(fields);
}

/** An entity's label (its title or name) as the copy holds it now; '' when it has none. */
export type EntityLabeler = (entity: string, pk: string) => string;

/** How a description names an entity (see entityName). */
export type EntityNamer = (entity: string, pk: string) => string;

/**
 * An entity as a description names it: `Todo 7 "Buy milk"`, `Todo 7` when it has no label, and
 * `new Todo (pending)` for an optimistic one the server has not given its pk yet.
 */
export function entityName(entity: string, pk: string, label = ''): string {
  if (isOptimisticPk(pk)) return `new ${entity} (pending)`;
  return label === '' ? `${entity} ${pk}` : `${entity} ${pk} ${JSON.stringify(label)}`;
}

/** What an event ran, as an entity's meta and history name it: its endpoint, or its kind. */
export const actionName = (event: StoreEvent) => event.action.endpoint ?? event.action.type;

/** Names entities without their labels (where no event or copy can tell them). */
export const nameWithoutLabel: EntityNamer = (entity, pk) => entityName(entity, pk);

const noLabel: EntityLabeler = () => '';
const eventLabels = new WeakMap<StoreEvent, Map<string, string>>();
const labelKey = (entity: string, pk: string) => `${entity}\n${pk}`;

/** The labels an event's effects carry, by entity and pk (worked out once per event). */
function labelsOf(event: StoreEvent): Map<string, string> {
  let labels = eventLabels.get(event);
  if (labels === undefined) {
    labels = new Map();
    for (const effect of event.effects) {
      if (effect.type === 'entity-invalidated' && effect.label)
        labels.set(labelKey(effect.entity, effect.pk), effect.label);
      else if (effect.type === 'entities-added' || effect.type === 'entities-updated') {
        const pks = entityPks(effect);
        effect.labels?.forEach((label, index) => {
          const pk = pks[index];
          if (label && pk !== undefined) labels?.set(labelKey(effect.entity, pk), label);
        });
      }
    }
    eventLabels.set(event, labels);
  }
  return labels;
}

/**
 * How one event's descriptions name entities: by the labels the event carries (what they were
 * called when it happened), else by what `labelOf` finds (the rows the copy holds now).
 */
export function eventNamer(event: StoreEvent, labelOf: EntityLabeler = noLabel): EntityNamer {
  const labels = labelsOf(event);
  return (entity, pk) =>
    entityName(entity, pk, labels.get(labelKey(entity, pk)) || labelOf(entity, pk));
}

/** A collection row key (`{"userId":"1"}`) as its arguments: `userId: "1"`, or `all` for `{}`. */
export function formatRowKey(row: string): string {
  try {
    const args: unknown = JSON.parse(row);
    if (typeof args !== 'object' || args === null || Array.isArray(args)) return row;
    const entries = Object.entries(args);
    if (entries.length === 0) return 'all (no arguments)';
    return entries.map(([key, value]) => `${key}: ${JSON.stringify(value)}`).join(', ');
  } catch {
    // Not JSON, or nested too deep to write again: the key as it came.
    return row;
  }
}

/** `[Todo]` → `Todo`: the entity type a collection holds. */
export function collectionEntityType(collection: string): string {
  return collection.slice(1, -1);
}

/** A wall-clock time with milliseconds, as the timeline shows it. */
export function formatTime(ms: number): string {
  const date = new Date(ms);
  const pad = (value: number, length = 2) => String(value).padStart(length, '0');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}

/** An expiry compared with now: `expires 12:00:01`, `expired`, or `invalidated`. */
export function formatExpiry(meta: Encoded | undefined, now = Date.now()): string {
  const fields = plainFields(meta);
  if (!fields) return '';
  if (fields.invalidated === true) return 'invalidated';
  const expiresAt = fields.expiresAt;
  if (typeof expiresAt !== 'number') return '';
  return expiresAt <= now ? 'expired' : `expires ${formatTime(expiresAt)}`;
}

/** The members of a collection, each as a description names it. */
const names = (name: EntityNamer, collection: string, pks: readonly string[]) =>
  pks.map((pk) => name(collectionEntityType(collection), pk)).join(', ');

type EntitiesChange = Extract<Effect, { type: 'entities-added' | 'entities-updated' }>;

/** The pks of a group of entities added or updated, in order. */
export function entityPks(effect: EntitiesChange): string[] {
  return effect.type === 'entities-added' ? effect.pks : effect.updates.map(({ pk }) => pk);
}

/** A changed field as `title: "a" → "b"`. */
function describeFieldChange({ field, before, after }: FieldChange<Encoded>): string {
  return `${field}: ${formatValue(before, 60)} → ${formatValue(after, 60)}`;
}

/**
 * What a grouped effect did to its `index`th entity: `added Todo 5 "Buy milk"`, `updated Todo 5
 * "b": title: "a" → "b"`.
 */
export function describeEntityChange(
  effect: EntitiesChange,
  index: number,
  name: EntityNamer = nameWithoutLabel,
): string {
  const pk = entityPks(effect)[index] ?? '';
  if (effect.type === 'entities-added') return `added ${name(effect.entity, pk)}`;
  const fields = effect.updates[index]?.fields.map(describeFieldChange).join(', ');
  return `updated ${name(effect.entity, pk)}: ${fields || 'no field changed'}`;
}

/**
 * What one effect did, in one line of text: a group of entities in one line (`added 500 Todo`),
 * each entity named by `name` (see eventNamer).
 */
export function describeEffect(effect: Effect, name: EntityNamer = nameWithoutLabel): string {
  switch (effect.type) {
    case 'entities-added':
    case 'entities-updated': {
      const count = entityPks(effect).length;
      return count === 1
        ? describeEntityChange(effect, 0, name)
        : `${effect.type === 'entities-added' ? 'added' : 'updated'} ${count} ${effect.entity}`;
    }
    case 'entity-invalidated':
      return `${name(effect.entity, effect.pk)} invalidated (pk from ${
        effect.via === 'url-params' ? 'URL params' : 'response'
      } ${formatValue(effect.from, 80)})`;
    case 'collection-changed':
      return `${effect.collection} ${formatRowKey(effect.row)}: ${describeCollectionChange(effect, name)}`;
    case 'result-stored':
      return effect.kept
        ? `stored ${effect.key} (${effect.endpoint}) → ${formatResult(effect.result, 80)}`
        : `stored ${effect.key} (${effect.endpoint}) in the tables, no result kept`;
    case 'result-error':
      return `error for ${effect.key} (${effect.endpoint}): ${formatValue(effect.error, 120)}`;
    case 'result-invalidated':
      return `invalidated ${effect.key}`;
    case 'result-expired':
      return `expired ${effect.key}`;
    case 'result-suspends':
      return `${effect.key} (${effect.endpoint}) will suspend and fetch again`;
    case 'result-lost-member':
      return `${effect.key} (${effect.endpoint}) stays valid but lost a member`;
    case 'store-reset':
      return 'store reset: everything cleared';
    case 'replay-result':
      return `replay ${effect.replayId} #${effect.index} ${effect.endpoint}: ${
        effect.ok ? 'ok' : `failed${effect.error ? ` (${effect.error})` : ''}`
      }`;
  }
}

/** Said of an event sent without its effects (they were too large for one message). */
export const EFFECTS_OMITTED =
  'effects left out (too large for one message); the snapshot after it has the state';

/** One line of an expanded effect; a line about one entity opens it. */
interface EffectLine {
  text: string;
  entity?: { entity: string; pk: string };
  /** One entity of the group the line before names. */
  nested?: boolean;
}

/**
 * An effect as the lines the timeline shows: a group of entities as its count, then one line per
 * entity (each opens it); other effects as their one line.
 */
export function effectLines(effect: Effect, name: EntityNamer = nameWithoutLabel): EffectLine[] {
  switch (effect.type) {
    case 'entities-added':
    case 'entities-updated': {
      const lines = entityPks(effect).map((pk, index) => ({
        text: describeEntityChange(effect, index, name),
        entity: { entity: effect.entity, pk },
      }));
      return lines.length === 1
        ? lines
        : [
            { text: describeEffect(effect, name) },
            ...lines.map((line) => ({ ...line, nested: true })),
          ];
    }
    case 'entity-invalidated':
      return [
        { text: describeEffect(effect, name), entity: { entity: effect.entity, pk: effect.pk } },
      ];
    default:
      return [{ text: describeEffect(effect, name) }];
  }
}

type CollectionChange = Extract<Effect, { type: 'collection-changed' }>;

/** The pks a collection change inserted, in the order of the list. */
export function insertedPks(change: CollectionChange): string[] {
  return change.inserted.flatMap((run) => run.pks);
}

/** A collection change in the words the Collections view highlights it with. */
export function describeCollectionChange(
  change: CollectionChange,
  name: EntityNamer = nameWithoutLabel,
): string {
  const list = (pks: readonly string[]) => names(name, change.collection, pks);
  const inserted = list(insertedPks(change));
  const counts = `(${change.lengthBefore} → ${change.lengthAfter})`;
  switch (change.kind) {
    case 'push':
      return `pushed ${inserted} at the end ${counts}`;
    case 'unshift':
      return `unshifted ${inserted} at the start ${counts}`;
    case 'page-merge': {
      const skipped =
        change.duplicates.length > 0
          ? `; skipped duplicates ${list(change.duplicates)}`
          : '; no duplicates';
      return `merged a page: added ${inserted || 'nothing'}${skipped} ${counts}`;
    }
    case 'add':
      return `added ${inserted} ${counts}`;
    case 'replace':
      return change.removed.length > 0
        ? `replaced by a fresh list; ${list(change.removed)} not in it ${counts}`
        : `replaced by a fresh list ${counts}`;
    case 'invalidate':
      return `removed ${list(change.removed)}: deleted (Invalidate) ${counts}`;
    case 'remove':
      return `removed ${list(change.removed)}: left the list (remove or move) ${counts}`;
  }
}

/** Why a change's removed members left the row, as the Collections view titles them. */
export function removedReason(kind: CollectionChange['kind']): string {
  if (kind === 'invalidate') return 'Deleted (Invalidate)';
  return kind === 'remove' ? 'Left the list (remove or move)' : 'Not in the fresh list';
}

/**
 * What rolling back an optimistic event undid, from what it had applied: each collection row it
 * had grown, each entity it had added or changed.
 */
export function rollbackLines(
  applied: StoreEvent,
  name: EntityNamer = eventNamer(applied),
): EffectLine[] {
  const lines: EffectLine[] = [];
  for (const effect of applied.effects) {
    switch (effect.type) {
      case 'collection-changed': {
        const pks = names(name, effect.collection, insertedPks(effect));
        if (pks)
          lines.push({
            text: `rolled back: ${effect.collection} ${formatRowKey(effect.row)}: ${pks} left again (${effect.lengthAfter} → ${effect.lengthBefore})`,
          });
        break;
      }
      case 'entities-added':
        for (const pk of effect.pks)
          lines.push({
            text: `rolled back: ${name(effect.entity, pk)} removed`,
            entity: { entity: effect.entity, pk },
          });
        break;
      case 'entities-updated':
        for (const { pk, fields } of effect.updates)
          lines.push({
            text: `rolled back: ${name(effect.entity, pk)} restored: ${fields
              .map(({ field, before, after }) =>
                describeFieldChange({ field, before: after, after: before }),
              )
              .join(', ')}`,
            entity: { entity: effect.entity, pk },
          });
        break;
      default:
        break;
    }
  }
  return lines;
}

/** How a change marks the members it inserted, for highlighting. */
export function insertedMark(kind: CollectionChange['kind']): string | undefined {
  switch (kind) {
    case 'push':
      return 'pushed';
    case 'unshift':
      return 'unshifted';
    case 'page-merge':
      return 'merged';
    case 'add':
      return 'added';
    default:
      return undefined;
  }
}

/**
 * How an invalidated entity's pk was computed: `empty response → URL params {id: 5} → Todo pk
 * "5"`. `url-params` means the server's answer named no entity (an empty body, typically), so
 * the call's URL params stood in for it; the event's `response` is the value after that
 * fallback, so it cannot show the raw answer.
 */
export function describePkOrigin(effect: Extract<Effect, { type: 'entity-invalidated' }>): string {
  const target = `${effect.entity} pk ${JSON.stringify(effect.pk)}`;
  const input = formatValue(effect.from, 120);
  return effect.via === 'url-params'
    ? `empty response → URL params ${input} → ${target}`
    : `response ${input} → ${target}`;
}
