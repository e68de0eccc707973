// WCAG 2 contrast of text against what is drawn behind it, computed from the styles the browser
// applied (getComputedStyle), for every text the panel shows. The pure colour maths is shared
// with the panel's palette test (extension/test/panel/contrast.test.ts).
import type { Page } from '@playwright/test';

/** An sRGB colour: red, green and blue from 0 to 255. */
export type Rgb = readonly [number, number, number];

/** WCAG AA: normal text needs 4.5:1, large text (24 px, or 18.66 px bold) 3:1. */
export const AA_NORMAL = 4.5;
export const AA_LARGE = 3;

/** The relative luminance of a colour (WCAG 2). */
export function relativeLuminance(color: Rgb): number {
  const linear = color.map((channel) => {
    const value = channel / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * (linear[0] ?? 0) + 0.7152 * (linear[1] ?? 0) + 0.0722 * (linear[2] ?? 0);
}

/** The contrast ratio of two colours, from 1 (none) to 21 (black on white). */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
}

/** A text that reads below the contrast WCAG AA asks of it. */
export interface LowContrast {
  text: string;
  /** The classes of the text's element and of its parents, innermost first. */
  where: string;
  color: string;
  background: string;
  ratio: number;
  required: number;
}

/**
 * Runs in the page (so it uses nothing from outside but `contrastRatio` and
 * `relativeLuminance`, which are sent along): every visible text, form control value and
 * placeholder whose contrast with its background is below what WCAG AA requires. The background
 * is composed from the element up to the page as the browser paints it: background colours with
 * their alpha, and the opacity of every element on the way. Disabled controls are left out, as
 * WCAG leaves them out.
 */
function findLowContrast(normal: number, large: number): LowContrast[] {
  type Rgba = [number, number, number, number];
  const parse = (css: string): Rgba => {
    const match = /^rgba?\(([^)]*)\)$/.exec(css.trim());
    if (!match) throw new Error(`contrast check: cannot read the colour "${css}"`);
    const parts = (match[1] ?? '')
      .split(/[\s,/]+/)
      .filter(Boolean)
      .map(Number);
    return [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0, parts[3] ?? 1];
  };
  const blend = (top: Rgba, below: Rgba, alpha: number): Rgba => [
    top[0] * alpha + below[0] * (1 - alpha),
    top[1] * alpha + below[1] * (1 - alpha),
    top[2] * alpha + below[2] * (1 - alpha),
    1,
  ];
  const css = (color: Rgba) => `rgb(${color.slice(0, 3).map(Math.round).join(' ')})`;

  /** The colours of the text and of its background, as painted over the (white) canvas. */
  const painted = (element: Element, textColor: string): { text: Rgba; background: Rgba } => {
    const path: Element[] = [];
    for (let at: Element | null = element; at; at = at.parentElement) path.unshift(at);
    const text = parse(textColor);
    const compose = (index: number, behind: Rgba, withText: boolean): Rgba => {
      const at = path[index];
      if (!at) return withText ? blend(text, behind, text[3]) : behind;
      const style = getComputedStyle(at);
      const background = parse(style.backgroundColor);
      const inner = compose(index + 1, blend(background, behind, background[3]), withText);
      return blend(inner, behind, Number(style.opacity));
    };
    const canvas: Rgba = [255, 255, 255, 1];
    return { text: compose(0, canvas, true), background: compose(0, canvas, false) };
  };

  const hidden = (element: Element) => {
    if (!element.checkVisibility({ visibilityProperty: true })) return true;
    for (let at: Element | null = element; at; at = at.parentElement) {
      if (getComputedStyle(at).clipPath !== 'none') return true; // visually hidden
    }
    return false;
  };
  const inactive = (element: Element) => element.closest(':disabled, [aria-disabled="true"]');
  const inView = (rect: DOMRect) =>
    rect.width > 1 &&
    rect.height > 1 &&
    rect.bottom > 0 &&
    rect.right > 0 &&
    rect.top < innerHeight &&
    rect.left < innerWidth;

  const found: LowContrast[] = [];
  const check = (element: Element, text: string, color: string) => {
    const style = getComputedStyle(element);
    const size = Number.parseFloat(style.fontSize);
    const bold = Number(style.fontWeight) >= 700;
    const required = size >= 24 || (bold && size >= 18.66) ? large : normal;
    const colors = painted(element, color);
    const ratio = contrastRatio(
      colors.text.slice(0, 3) as unknown as Rgb,
      colors.background.slice(0, 3) as unknown as Rgb,
    );
    if (ratio >= required) return;
    const where: string[] = [];
    for (let at: Element | null = element; at && at !== document.body; at = at.parentElement) {
      where.push(
        `${at.tagName.toLowerCase()}${at.classList.length ? `.${[...at.classList].join('.')}` : ''}`,
      );
    }
    found.push({
      text: text.slice(0, 60),
      where: where.join(' < '),
      color: css(colors.text),
      background: css(colors.background),
      ratio: Math.round(ratio * 100) / 100,
      required,
    });
  };

  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    const text = node.textContent?.trim() ?? '';
    if (!element || !text || element.closest('option, select, script, style')) continue;
    if (hidden(element) || inactive(element)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    if (!inView(range.getBoundingClientRect())) continue;
    check(element, text, getComputedStyle(element).color);
  }
  for (const control of document.querySelectorAll('select, input, textarea')) {
    if (hidden(control) || inactive(control) || !inView(control.getBoundingClientRect())) continue;
    if (control instanceof HTMLSelectElement) {
      const text = control.selectedOptions[0]?.text ?? '';
      if (text) check(control, text, getComputedStyle(control).color);
    } else if (control instanceof HTMLInputElement || control instanceof HTMLTextAreaElement) {
      if (control.type === 'checkbox' || control.type === 'radio' || control.type === 'file')
        continue;
      if (control.value) check(control, control.value, getComputedStyle(control).color);
      else if (control.placeholder)
        check(
          control,
          `placeholder "${control.placeholder}"`,
          getComputedStyle(control, '::placeholder').color,
        );
    }
  }
  return found;
}

/** Every text of the page below WCAG AA contrast, as it is shown now. */
export function lowContrastTexts(page: Page): Promise<LowContrast[]> {
  return page.evaluate(
    `(() => { ${relativeLuminance}; ${contrastRatio}; return (${findLowContrast})(${AA_NORMAL}, ${AA_LARGE}); })()`,
  );
}
