import { describe, expect, it, vi } from 'vitest';
import { readTabId } from '../../src/panel/tabId.js';
import { applyTheme, followTheme, resolveTheme } from '../../src/panel/theme.js';

describe('readTabId', () => {
  it('takes ?tabId= first, without touching the devtools API', () => {
    const fromDevtools = vi.fn(() => 9);
    expect(readTabId('?tabId=42', fromDevtools)).toBe(42);
    expect(fromDevtools).not.toHaveBeenCalled();
  });

  it('refuses a tabId that is not a tab id', () => {
    for (const search of ['?tabId=', '?tabId=abc', '?tabId=-1', '?tabId=1.5'])
      expect(readTabId(search, () => 9)).toBeUndefined();
  });

  it('falls back to the inspected window, and to nothing outside DevTools', () => {
    expect(readTabId('', () => 7)).toBe(7);
    expect(
      readTabId('', () => {
        throw new TypeError("Cannot read properties of undefined (reading 'inspectedWindow')");
      }),
    ).toBeUndefined();
  });
});

describe('theme', () => {
  it('follows the DevTools theme when known, else the system', () => {
    expect(resolveTheme('dark', false)).toBe('dark');
    expect(resolveTheme('default', true)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
    expect(resolveTheme(undefined, true)).toBe('dark');
    expect(resolveTheme(undefined, false)).toBe('light');
  });

  it('sets data-theme on <html> and follows a DevTools theme change', () => {
    const listeners: ((name: string) => void)[] = [];
    followTheme(window, {
      themeName: 'dark',
      onThemeChanged: { addListener: (listener) => listeners.push(listener) },
    });
    expect(document.documentElement.dataset.theme).toBe('dark');
    listeners[0]?.('default');
    expect(document.documentElement.dataset.theme).toBe('light');
    applyTheme(document.documentElement, 'dark');
    expect(document.documentElement.style.colorScheme).toBe('dark');
  });

  it("follows Chromium's theme change handler live", () => {
    let handler: ((name: string) => void) | undefined;
    followTheme(window, {
      themeName: 'default',
      setThemeChangeHandler: (changed) => {
        handler = changed;
      },
    });
    expect(document.documentElement.dataset.theme).toBe('light');
    handler?.('dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
    handler?.('default');
    expect(document.documentElement.dataset.theme).toBe('light');
  });
});
