type Theme = 'light' | 'dark';

/**
 * The part of `devtools.panels` that tells the DevTools theme and when it changes: Chromium
 * takes one handler (`setThemeChangeHandler`), Firefox has an event (`onThemeChanged`).
 */
export interface ThemeSource {
  themeName?: string;
  setThemeChangeHandler?(handler: (themeName: string) => void): void;
  onThemeChanged?: { addListener(listener: (themeName: string) => void): void };
}

/** The DevTools theme when it is known ('dark', or 'default'/'light'), else the system's. */
export function resolveTheme(devtoolsThemeName: string | undefined, prefersDark: boolean): Theme {
  if (devtoolsThemeName) return devtoolsThemeName === 'dark' ? 'dark' : 'light';
  return prefersDark ? 'dark' : 'light';
}

export function applyTheme(root: HTMLElement, theme: Theme): void {
  root.dataset.theme = theme;
  // Native controls (scrollbars, selects) follow too.
  root.style.colorScheme = theme;
}

/** Applies the theme now and whenever the DevTools or the system theme changes. */
export function followTheme(win: Window, devtools: ThemeSource | undefined): void {
  const query = win.matchMedia?.('(prefers-color-scheme: dark)');
  let themeName = devtools?.themeName;
  const update = () =>
    applyTheme(win.document.documentElement, resolveTheme(themeName, query?.matches ?? false));
  update();
  const changed = (name: string) => {
    themeName = name;
    update();
  };
  if (devtools?.setThemeChangeHandler) devtools.setThemeChangeHandler(changed);
  else devtools?.onThemeChanged?.addListener(changed);
  query?.addEventListener?.('change', update);
}
