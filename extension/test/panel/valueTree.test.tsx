import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { Encoded } from '../../../library/src/devtools/protocol/messages.js';
import { ValueTree } from '../../src/panel/components/ValueTree.js';
import { press } from './support/harness.js';

afterEach(() => {
  cleanup();
  Reflect.deleteProperty(navigator, 'clipboard');
});

const tree = () => screen.getByRole('tree');
const items = () => within(tree()).getAllByRole('treeitem');
const texts = () => items().map((item) => item.textContent);
const active = () => document.getElementById(tree().getAttribute('aria-activedescendant') ?? '');

const TODO: Encoded = {
  id: 5,
  title: 'write the report',
  tags: ['work', 'urgent'],
  due: { '@t': 'date', v: '2030-01-02T03:04:05.000Z' },
  owner: { '@t': 'instance', class: 'User', fields: { id: 7, name: 'Ada' } },
  seen: { '@t': 'map', entries: [['a', 1]] },
  notes: { '@t': 'truncated', reason: 'size', omitted: 12 },
};

describe('Value inspector', () => {
  it('shows objects and lists as a tree, markers labelled, first level open', () => {
    render(<ValueTree value={TODO} label="Todo 5" />);
    expect(texts()).toEqual([
      expect.stringMatching(/^▾\{ id: 5, title: "write the report"/),
      'id: 5',
      'title: "write the report"',
      '▸tags: Array(2) ["work", "urgent"]',
      'due: Date(2030-01-02T03:04:05.000Z)',
      '▸owner: User { id: 7, name: "Ada" }',
      '▸seen: Map(1)',
      'notes: … [cut: size, 12 omitted]',
    ]);
    expect(items()[0]?.getAttribute('aria-expanded')).toBe('true');
    expect(items()[3]?.getAttribute('aria-expanded')).toBe('false');
    expect(items()[3]?.getAttribute('aria-level')).toBe('2');
  });

  it('moves with the arrows, opens with Right, closes with Left, toggles with Enter', async () => {
    render(<ValueTree value={TODO} label="Todo 5" />);
    const list = tree();
    list.focus();
    await press(list, 'ArrowDown'); // id
    await press(list, 'ArrowDown'); // title
    await press(list, 'ArrowDown'); // tags
    expect(active()?.textContent).toMatch(/^▸tags/);
    await press(list, 'ArrowRight'); // opens tags
    expect(texts()).toContain('0: "work"');
    await press(list, 'ArrowRight'); // enters tags
    expect(active()?.textContent).toBe('0: "work"');
    await press(list, 'ArrowLeft'); // back to its parent
    expect(active()?.textContent).toMatch(/^▾tags/);
    await press(list, 'ArrowLeft'); // closes it
    expect(texts()).not.toContain('0: "work"');
    await press(list, 'Enter'); // opens it again
    expect(texts()).toContain('1: "urgent"');
    await press(list, 'Home');
    await press(list, 'Enter'); // closes the root
    expect(items()).toHaveLength(1);
  });

  it('wraps a long string, shows its start, and the whole of it on demand', () => {
    const long = 'x'.repeat(1000);
    render(<ValueTree value={{ body: long }} label="body" />);
    const item = items()[1] as HTMLElement;
    expect(item.querySelector('.value-text')?.textContent).toHaveLength(241); // its first 240 characters and …
    fireEvent.click(within(item).getByRole('button', { name: 'show all 1002 characters' }));
    expect(items()[1]?.querySelector('.value-text')?.textContent).toBe(`"${long}"`);
  });

  it('copies a value as plain JSON, markers written as JSON says them', async () => {
    const written: string[] = [];
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: async (text: string) => void written.push(text) },
    });
    render(<ValueTree value={TODO} label="Todo 5" copyable />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy Todo 5 as JSON' }));
    });
    expect(JSON.parse(written[0] ?? '')).toEqual({
      id: 5,
      title: 'write the report',
      tags: ['work', 'urgent'],
      due: '2030-01-02T03:04:05.000Z',
      owner: { id: 7, name: 'Ada' },
      seen: { a: 1 },
      notes: '… [cut: size, 12 omitted]',
    });
    expect(screen.getByRole('status').textContent).toBe('Copied');
  });

  it('writes what the page sent as text, never as HTML', () => {
    render(<ValueTree value={{ html: '<img src=x onerror="alert(1)">' }} label="html" />);
    expect(tree().querySelector('img')).toBeNull();
    expect(texts()[1]).toBe('html: "<img src=x onerror=\\"alert(1)\\">"');
  });
});
