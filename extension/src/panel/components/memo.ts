import { Component, type ComponentChildren } from 'preact';

/**
 * A component that renders again only when one of its props changed (compared by identity),
 * like preact/compat's `memo` (importing preact/compat would turn every vnode into a compat one,
 * see context.ts). For parts that a store update leaves as they were but whose parent renders
 * anyway: a timeline row that stays in view, a menu of a thousand results.
 */
export function memo<Props extends object>(render: (props: Props) => ComponentChildren) {
  return class Memo extends Component<Props> {
    override shouldComponentUpdate(next: Props): boolean {
      return !sameProps(this.props, next);
    }

    override render(props: Props): ComponentChildren {
      return render(props);
    }
  };
}

function sameProps(a: object, b: object): boolean {
  const before = a as Record<string, unknown>;
  const after = b as Record<string, unknown>;
  for (const name in before) if (!(name in after)) return false;
  for (const name in after) if (before[name] !== after[name]) return false;
  return true;
}
