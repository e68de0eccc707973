import type { Encoded } from '../../../library/src/devtools/protocol/messages.js';
import { formatValue, isTagged, type Tagged } from './format.js';

/**
 * A carried value as the nodes of a tree (the Value inspector): each node's text, what kind of
 * value it is, and its children, worked out only when the node is opened (a row may hold
 * thousands of fields).
 */
export interface ValueNode {
  /** The field name, list index or map key it sits under ('' for the root). */
  key: string;
  /** What the node shows: a leaf's value, or a container's kind and preview. */
  text: string;
  kind: 'string' | 'number' | 'boolean' | 'null' | 'container' | 'marker' | 'error' | 'cut';
  /** A string long enough to be shown cut, with a way to see it whole. */
  long?: boolean;
  /** The children, for a node that has them (absent for a leaf). */
  children?: ValueNode[];
  /** In a diff: how the node differs from the value compared with (absent: it does not). */
  change?: 'added' | 'removed' | 'changed';
  /** In a diff: a changed leaf's text in the value compared with. */
  before?: string;
}

type Fields = { [key: string]: Encoded };

const PREVIEW = 80;

/** A node whose children are built when first read (only open nodes read them). */
function container(key: string, text: string, entries: () => [string, Encoded][]): ValueNode {
  let built: ValueNode[] | undefined;
  return {
    key,
    text,
    kind: 'container',
    get children() {
      built ??= entries().map(([childKey, child]) => valueNode(childKey, child));
      return built;
    },
  };
}

const fieldsOf = (fields: Fields): [string, Encoded][] => Object.entries(fields);

/**
 * A value that holds others, as the tree shows it: what kind of container it is (two values
 * compare member by member only when their kinds match), its preview, and its members keyed as
 * the tree shows them.
 */
export interface Container {
  kind: string;
  text: string;
  entries(): [string, Encoded][];
}

/** The value as a container, or undefined for a leaf (a string, a Date, an error…). */
export function containerOf(value: Encoded): Container | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value))
    return {
      kind: 'array',
      text: `Array(${value.length}) ${formatValue(value, PREVIEW)}`,
      entries: () => value.map((item, index) => [String(index), item]),
    };
  if (!isTagged(value))
    return {
      kind: 'object',
      text: formatValue(value, PREVIEW),
      entries: () => fieldsOf(value as Fields),
    };
  switch (value['@t']) {
    case 'map':
      return {
        kind: 'map',
        text: `Map(${value.entries.length})`,
        entries: () => value.entries.map(([mapKey, item]) => [formatValue(mapKey, 40), item]),
      };
    case 'set':
      return {
        kind: 'set',
        text: `Set(${value.values.length})`,
        entries: () => value.values.map((item, index) => [String(index), item]),
      };
    case 'instance':
      return {
        // A replay's answer is the entity the app reads, the recorded one the server's object:
        // they compare by their fields.
        kind: 'object',
        text: `${value.class} ${formatValue(value.fields, PREVIEW)}`,
        entries: () => fieldsOf(value.fields),
      };
    case 'object':
      return {
        kind: 'object',
        text: formatValue(value.fields, PREVIEW),
        entries: () => fieldsOf(value.fields),
      };
    default:
      return undefined;
  }
}

/** One value as a tree node under `key`. */
export function valueNode(key: string, value: Encoded | undefined): ValueNode {
  if (value === undefined) return { key, text: 'undefined', kind: 'null' };
  if (value === null) return { key, text: 'null', kind: 'null' };
  switch (typeof value) {
    case 'string':
      return { key, text: JSON.stringify(value), kind: 'string', long: value.length > 60 };
    case 'number':
      return { key, text: String(value), kind: 'number' };
    case 'boolean':
      return { key, text: String(value), kind: 'boolean' };
  }
  const inner = containerOf(value);
  if (inner) return container(key, inner.text, inner.entries);
  return taggedLeaf(key, value as Tagged);
}

function taggedLeaf(key: string, value: Tagged): ValueNode {
  switch (value['@t']) {
    case 'error':
      return { key, text: formatValue(value), kind: 'error' };
    case 'truncated':
      return { key, text: formatValue(value), kind: 'cut' };
    case 'number':
      return { key, text: value.v, kind: 'number' };
    default:
      // undefined, bigint, Date, function, symbol, cycle: one labelled leaf each.
      return { key, text: formatValue(value), kind: 'marker' };
  }
}

/**
 * A carried value as plain JSON (for "Copy JSON"): markers become what they stand for as near
 * as JSON can say it (a Date its ISO text, a Map an object or its entries, an instance its
 * fields, a cut value its marker text).
 */
export function valueToJson(value: Encoded | undefined): unknown {
  if (value === undefined) return null;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(valueToJson);
  if (!isTagged(value)) return objectToJson(value as Fields);
  switch (value['@t']) {
    case 'undefined':
      return null;
    case 'number':
    case 'bigint':
    case 'date':
      return value.v;
    case 'map':
      return value.entries.every(([mapKey]) => typeof mapKey === 'string')
        ? objectToJson(Object.fromEntries(value.entries as [string, Encoded][]))
        : value.entries.map(([mapKey, item]) => [valueToJson(mapKey), valueToJson(item)]);
    case 'set':
      return value.values.map(valueToJson);
    case 'instance':
    case 'object':
      return objectToJson(value.fields);
    case 'error':
      return { name: value.name, message: value.message, status: value.status };
    default:
      return formatValue(value);
  }
}

/** Fields as a plain object; defined one by one, so a `__proto__` field stays a field. */
function objectToJson(fields: Fields): Record<string, unknown> {
  const json: Record<string, unknown> = {};
  for (const [field, item] of Object.entries(fields))
    Object.defineProperty(json, field, {
      value: valueToJson(item),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return json;
}
