/**
 * The panel's side of the scale benchmark: user interactions timed in the panel page, each from
 * the DOM event to the frame after it (what the user waits for), and the panel's longest task
 * while rows load.
 */
import type { Page } from '@playwright/test';

export interface PanelTimings {
  /** Milliseconds of each interaction, by name. */
  interactions: Record<string, number>;
  /** The panel's longest task while the Entities filter loaded the rows (ms; 0: none ≥ 50 ms). */
  longestTaskWhileLoadingMs: number;
  /** How long the rows the filter needs took to come (ms). */
  rowsLoadedMs: number;
}

export type Step =
  | { kind: 'tab'; label: string }
  | { kind: 'type'; selector: string; text: string }
  | { kind: 'submit'; selector: string }
  | { kind: 'scroll'; selector: string }
  | { kind: 'biggest-row' };

/** Runs one step in the panel page; resolves with the ms until the frame after it. */
export function runStep(panel: Page, step: Step): Promise<number> {
  return panel.evaluate(async (step) => {
    const find = (selector: string) => {
      const element = document.querySelector(selector);
      if (!element) throw new Error(`no ${selector} in the panel`);
      return element as HTMLElement;
    };
    const start = performance.now();
    switch (step.kind) {
      case 'tab': {
        const tabs = [...document.querySelectorAll<HTMLElement>('[role=tab]')];
        const tab = tabs.find((candidate) => candidate.textContent?.trim() === step.label);
        if (!tab) throw new Error(`no ${step.label} tab`);
        tab.click();
        break;
      }
      case 'type': {
        const input = find(step.selector) as HTMLInputElement;
        input.value = step.text;
        input.dispatchEvent(new Event('input', { bubbles: true }));
        break;
      }
      case 'submit':
        (find(step.selector) as HTMLFormElement).requestSubmit();
        break;
      case 'scroll': {
        const list = find(step.selector);
        list.scrollTop = list.scrollHeight;
        list.dispatchEvent(new Event('scroll'));
        break;
      }
      case 'biggest-row': {
        const rows = [...document.querySelectorAll<HTMLElement>('#collection-rows [role=option]')];
        const size = (row: HTMLElement) => Number(row.querySelector('.count')?.textContent ?? 0);
        const biggest = rows.reduce((best, row) => (size(row) > size(best) ? row : best));
        biggest.click();
        break;
      }
    }
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    return performance.now() - start;
  }, step);
}

const ENTITY_FILTER = '.lookup input[type=search]';

/** The interactions the scale table times, in the order a user might make them. */
export async function measurePanel(panel: Page, pk: string): Promise<PanelTimings> {
  await panel.bringToFront();
  await panel.evaluate(() => {
    const state = window as unknown as { longest: number };
    state.longest = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        state.longest = Math.max(state.longest, entry.duration);
    }).observe({ type: 'longtask' });
  });
  const interactions: Record<string, number> = {};
  const time = async (name: string, step: Step) => {
    interactions[name] = await runStep(panel, step);
  };
  await time('switch to Entities', { kind: 'tab', label: 'Entities' });
  await panel.evaluate(() => {
    (window as unknown as { longest: number }).longest = 0;
  });
  const loading = performance.now();
  await time('Entities filter, first keystroke (rows missing)', {
    kind: 'type',
    selector: ENTITY_FILTER,
    text: pk.slice(0, 1),
  });
  await time('Entities filter, second keystroke', {
    kind: 'type',
    selector: ENTITY_FILTER,
    text: pk.slice(0, 2),
  });
  await panel
    .locator('.notice.is-loading')
    .waitFor({ state: 'detached', timeout: 300_000 })
    .catch(() => undefined);
  const rowsLoadedMs = performance.now() - loading;
  const longestTaskWhileLoadingMs = await panel.evaluate(
    () => (window as unknown as { longest: number }).longest,
  );
  await time('Entities filter, keystroke (rows loaded)', {
    kind: 'type',
    selector: ENTITY_FILTER,
    text: pk.slice(0, 3),
  });
  await time('look up a pk', { kind: 'type', selector: ENTITY_FILTER, text: pk });
  await time('look up a pk: show', { kind: 'submit', selector: 'form.lookup' });
  await time('switch to Collections', { kind: 'tab', label: 'Collections' });
  await time('select the 10k-member row', { kind: 'biggest-row' });
  await time('scroll 10k members to the end', { kind: 'scroll', selector: '#collection-members' });
  await time('switch to Timeline', { kind: 'tab', label: 'Timeline' });
  await time('Timeline filter keystroke', {
    kind: 'type',
    selector: 'input[aria-label="Filter events"]',
    text: 'u',
  });
  return { interactions, longestTaskWhileLoadingMs, rowsLoadedMs };
}

/** What the panel page keeps of a watch (see watchForEvent). */
interface EventWatch {
  shown?: Promise<number>;
}

/**
 * Starts watching the panel for event `seq`: it is shown once the Timeline (the view open) has
 * committed its row to the DOM, and the task that did so has ended. A DevTools panel is on screen
 * beside the page, so its frame follows within one display refresh; here the panel is a tab
 * behind the page, whose frames headless Chromium spaces about a second apart, so waiting for
 * one would time the tab's throttling. Call before the page writes it; `eventShownAt` answers when.
 */
export function watchForEvent(panel: Page, seq: number, timeoutMs: number): Promise<void> {
  return panel.evaluate(
    ({ seq, timeoutMs }) => {
      const watch = window as unknown as EventWatch;
      const selector = `#timeline-events [data-seq="${seq}"]`;
      watch.shown = new Promise((resolve, reject) => {
        const painted = () =>
          setTimeout(() => resolve(performance.timeOrigin + performance.now()), 0);
        if (document.querySelector(selector)) {
          painted();
          return;
        }
        const timer = setTimeout(() => {
          observer.disconnect();
          reject(new Error(`the panel did not show event ${seq} in ${timeoutMs} ms`));
        }, timeoutMs);
        const observer = new MutationObserver(() => {
          if (!document.querySelector(selector)) return;
          observer.disconnect();
          clearTimeout(timer);
          painted();
        });
        observer.observe(document.body, {
          childList: true,
          subtree: true,
          attributes: true,
          attributeFilter: ['data-seq'],
        });
      });
    },
    { seq, timeoutMs },
  );
}

/** When the watched event was shown: `performance.timeOrigin + performance.now()` (ms). */
export function eventShownAt(panel: Page): Promise<number> {
  return panel.evaluate(() => {
    const { shown } = window as unknown as EventWatch;
    if (!shown) throw new Error('watchForEvent first');
    return shown;
  });
}

/** The newest event the Timeline shows (its rows follow the end), or 0 when it shows none. */
export function lastEventShown(panel: Page): Promise<number> {
  return panel.evaluate(() =>
    Math.max(
      0,
      ...[...document.querySelectorAll<HTMLElement>('#timeline-events [data-seq]')].map((row) =>
        Number(row.dataset.seq),
      ),
    ),
  );
}
