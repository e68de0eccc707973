/**
 * The inspected tab: `?tabId=` when the panel page is opened as a normal page (the e2e tests do
 * that, and `devtools` is undefined there), else the DevTools' inspected window.
 */
export function readTabId(
  search: string,
  fromDevtools: () => number | undefined,
): number | undefined {
  const param = new URLSearchParams(search).get('tabId');
  if (param !== null) {
    const id = Number(param);
    return param.trim() !== '' && Number.isSafeInteger(id) && id >= 0 ? id : undefined;
  }
  try {
    return fromDevtools();
  } catch {
    return undefined; // no devtools API on this page
  }
}
