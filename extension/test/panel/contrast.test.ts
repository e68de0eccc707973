import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AA_NORMAL, contrastRatio, type Rgb } from '../../../e2e/tests/contrast.js';

// The palette in panel.css: any text colour may sit on any background of its theme (a dim label
// in a selected row, a link in a badge's note), so every pair is checked, not only those used
// together today. The e2e screenshots spec checks the painted panel, view by view.

const css = readFileSync(
  join(dirname(fileURLToPath(import.meta.url)), '../../src/panel/panel.css'),
  'utf8',
);

const TEXT = ['fg', 'fg-dim', 'accent', 'add', 'remove', 'warn', 'info'];
const BACKGROUNDS = [
  'bg',
  'bg-bar',
  'bg-hover',
  'bg-selected',
  'bg-code',
  'add-bg',
  'remove-bg',
  'warn-bg',
  'info-bg',
];

/** The `--name: #rrggbb` variables of the rule for `[data-theme="<theme>"]`. */
function palette(theme: string): Map<string, Rgb> {
  const start = css.indexOf(`[data-theme="${theme}"] {`);
  if (start < 0) throw new Error(`panel.css has no rule for the ${theme} theme`);
  const body = css.slice(start, css.indexOf('}', start));
  const colors = new Map<string, Rgb>();
  for (const [, name, hex] of body.matchAll(/--([\w-]+):\s*#([0-9a-f]{6});/gi)) {
    const value = Number.parseInt(hex as string, 16);
    colors.set(name as string, [value >> 16, (value >> 8) & 0xff, value & 0xff]);
  }
  return colors;
}

describe('panel palette contrast (WCAG AA)', () => {
  it.each(['light', 'dark'])(
    'every text colour of the %s theme reads at 4.5:1 on every background',
    (theme) => {
      const colors = palette(theme);
      const low: string[] = [];
      for (const text of TEXT) {
        for (const background of BACKGROUNDS) {
          const fg = colors.get(text);
          const bg = colors.get(background);
          if (!fg || !bg) throw new Error(`the ${theme} theme has no --${fg ? background : text}`);
          const ratio = contrastRatio(fg, bg);
          if (ratio < AA_NORMAL) low.push(`--${text} on --${background}: ${ratio.toFixed(2)}`);
        }
      }
      expect(low).toEqual([]);
    },
  );

  it('computes the ratios WCAG gives for known pairs', () => {
    expect(contrastRatio([0, 0, 0], [255, 255, 255])).toBeCloseTo(21, 5);
    expect(contrastRatio([255, 255, 255], [255, 255, 255])).toBe(1);
    // #767676 on white is the lightest grey that passes AA.
    expect(contrastRatio([0x76, 0x76, 0x76], [255, 255, 255])).toBeCloseTo(4.54, 2);
  });
});
