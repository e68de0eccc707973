import { useMemo, useState } from 'preact/hooks';
import type { Encoded } from '../../../../library/src/devtools/protocol/messages.js';
import { type ValueNode, valueNode } from '../valueNodes.js';
import { CopyJson } from './CopyJson.js';

interface ValueTreeProps {
  value: Encoded | undefined;
  /** The tree's accessible name (what the value is: `title`, `response`…). */
  label: string;
  /** How many levels open at first (1: the value's own fields show). */
  openLevels?: number;
  /** Offers "Copy JSON" beside the value. */
  copyable?: boolean;
  /** The tree to show for `value`, when it is not `value`'s own: a diff, its changes marked. */
  tree?: ValueNode;
}

/** A node as shown: where it is in the tree, and whether its children show. */
interface VisibleNode {
  node: ValueNode;
  /** The path of keys from the root, joined: unique in the tree. */
  path: string;
  level: number;
  parent?: string;
}

/** Strings longer than this show their start, and a button that shows them whole. */
const LONG_STRING = 240;

/** The nodes shown, in order: each open node is followed by its children. */
function visibleNodes(root: ValueNode, open: ReadonlySet<string>): VisibleNode[] {
  const shown: VisibleNode[] = [];
  const walk = (node: ValueNode, path: string, level: number, parent?: string) => {
    shown.push({ node, path, level, parent });
    if (!open.has(path)) return;
    for (const child of node.children ?? [])
      walk(child, `${path}\u0000${child.key}`, level + 1, path);
  };
  walk(root, '', 1);
  return shown;
}

/** The paths open at first: every expandable node above `levels`, and the way to every change. */
function initiallyOpen(root: ValueNode, levels: number): Set<string> {
  const open = new Set<string>();
  const walk = (node: ValueNode, path: string, level: number) => {
    const holdsChanges = node.change === 'changed' && node.before === undefined;
    if (!node.children || (level > levels && !holdsChanges)) return;
    open.add(path);
    for (const child of node.children) walk(child, `${path}\u0000${child.key}`, level + 1);
  };
  walk(root, '', 1);
  return open;
}

let treeCount = 0;

/** Opens and closes nodes by path; `to` forces one way, else the node toggles. */
type Toggle = (path: string, to?: boolean) => void;

/** The paths of the open nodes (at first, as `initiallyOpen` has them). */
function useOpenPaths(root: ValueNode, openLevels: number): [ReadonlySet<string>, Toggle] {
  const [open, setOpen] = useState(() => initiallyOpen(root, openLevels));
  const toggle: Toggle = (path, to) =>
    setOpen((current) => {
      const next = new Set(current);
      const opening = to ?? !next.has(path);
      if (opening) next.add(path);
      else next.delete(path);
      return next;
    });
  return [open, toggle];
}

/** The paths of the long strings shown whole, and a switch between whole and cut for one. */
function useWholeStrings(): [ReadonlySet<string>, (path: string) => void] {
  const [wholeStrings, setWholeStrings] = useState<ReadonlySet<string>>(new Set());
  const flip = (path: string) =>
    setWholeStrings((current) => {
      const next = new Set(current);
      if (!next.delete(path)) next.add(path);
      return next;
    });
  return [wholeStrings, flip];
}

/** The tree's keys, acting on the active node (`nodes[activeIndex]`); other keys are let through. */
function treeKeyHandler(tree: {
  nodes: readonly VisibleNode[];
  activeIndex: number;
  open: ReadonlySet<string>;
  toggle: Toggle;
  setActive(path: string): void;
}): (event: KeyboardEvent) => void {
  const { nodes, activeIndex, open, toggle, setActive } = tree;
  return (event) => {
    const current = nodes[activeIndex];
    if (!current || event.altKey || event.ctrlKey || event.metaKey) return;
    const expandable = current.node.children !== undefined;
    const move = (index: number) => {
      const target = nodes[Math.max(0, Math.min(nodes.length - 1, index))];
      if (target) setActive(target.path);
    };
    switch (event.key) {
      case 'ArrowDown':
        move(activeIndex + 1);
        break;
      case 'ArrowUp':
        move(activeIndex - 1);
        break;
      case 'Home':
        move(0);
        break;
      case 'End':
        move(nodes.length - 1);
        break;
      case 'ArrowRight':
        if (expandable && !open.has(current.path)) toggle(current.path, true);
        else if (expandable) move(activeIndex + 1);
        break;
      case 'ArrowLeft':
        if (expandable && open.has(current.path)) toggle(current.path, false);
        else if (current.parent !== undefined) setActive(current.parent);
        break;
      case 'Enter':
        if (expandable) toggle(current.path);
        break;
      default:
        return; // not a tree key: let it through
    }
    event.preventDefault();
  };
}

/**
 * A value as a collapsible tree (objects and lists expand; markers of values JSON cannot carry
 * are labelled: Date, Map, class instances, cut values). Keyboard as in any tree: ArrowUp and
 * ArrowDown move, ArrowRight opens (or enters) a node, ArrowLeft closes it (or goes to its
 * parent), Enter toggles, Home and End jump. The tree keeps focus and names its active node with
 * `aria-activedescendant`. Everything the page sent ends up as text, never as HTML.
 */
export function ValueTree({
  value,
  label,
  openLevels = 1,
  copyable = false,
  tree,
}: ValueTreeProps) {
  const root = useMemo(() => tree ?? valueNode('', value), [tree, value]);
  const [id] = useState(() => `value-tree-${++treeCount}`);
  const [open, toggle] = useOpenPaths(root, openLevels);
  const [active, setActive] = useState('');
  const [wholeStrings, flipWhole] = useWholeStrings();
  const nodes = visibleNodes(root, open);
  const activeIndex = Math.max(
    0,
    nodes.findIndex((shown) => shown.path === active),
  );
  const rowId = (index: number) => `${id}-${index}`;

  return (
    <div class="value-tree-wrap">
      <div
        class="value-tree"
        role="tree"
        aria-label={label}
        tabIndex={0}
        aria-activedescendant={rowId(activeIndex)}
        onKeyDown={treeKeyHandler({ nodes, activeIndex, open, toggle, setActive })}
      >
        {nodes.map((shown, index) => (
          <TreeNode
            key={shown.path}
            id={rowId(index)}
            shown={shown}
            active={index === activeIndex}
            open={open.has(shown.path)}
            whole={wholeStrings.has(shown.path)}
            onClick={() => {
              setActive(shown.path);
              if (shown.node.children !== undefined) toggle(shown.path);
            }}
            onFlipWhole={() => flipWhole(shown.path)}
          />
        ))}
      </div>
      {copyable && <CopyJson value={value} label={label} />}
    </div>
  );
}

/** One node of the tree: its key, its value (cut when long, unless `whole`), how it changed. */
function TreeNode(props: {
  id: string;
  shown: VisibleNode;
  active: boolean;
  open: boolean;
  whole: boolean;
  onClick(): void;
  /** Shows a long string whole, or cut again. */
  onFlipWhole(): void;
}) {
  const { node, level } = props.shown;
  const { active, whole } = props;
  const expandable = node.children !== undefined;
  const long = node.long === true && node.text.length > LONG_STRING;
  const text = long && !whole ? `${node.text.slice(0, LONG_STRING)}…` : node.text;
  return (
    // The tree keeps focus and handles the keys; a click also toggles.
    // biome-ignore lint/a11y/useKeyWithClickEvents: the tree handles the keys
    // biome-ignore lint/a11y/useFocusableInteractive: focus stays on the tree
    <div
      id={props.id}
      role="treeitem"
      aria-level={level}
      aria-expanded={expandable ? props.open : undefined}
      aria-selected={active}
      class={`value-node${active ? ' is-active' : ''}${node.change ? ` change-${node.change}` : ''}`}
      style={{ paddingLeft: `${(level - 1) * 14 + 4}px` }}
      onClick={props.onClick}
    >
      <span class="toggle" aria-hidden="true">
        {expandable ? (props.open ? '▾' : '▸') : ''}
      </span>
      {node.key !== '' && <span class="value-key">{node.key}: </span>}
      {node.before !== undefined && (
        <>
          <span class="value-text value-before">{node.before}</span>
          <span class="value-arrow"> → </span>
        </>
      )}
      <span class={`value-text value-${node.kind}`}>{text}</span>
      {node.change && <span class={`badge badge-${node.change}`}>{node.change}</span>}
      {long && (
        <button
          type="button"
          class="link small"
          onClick={(event) => {
            event.stopPropagation();
            props.onFlipWhole();
          }}
        >
          {whole ? 'show less' : `show all ${node.text.length} characters`}
        </button>
      )}
    </div>
  );
}
