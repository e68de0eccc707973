import { usePanel } from '../context.js';

/** Pages the browser runs no extension's content script on, by their URL scheme. */
const UNREACHABLE_SCHEMES = ['data:', 'file:', 'about:', 'chrome:', 'view-source:', 'blob:'];

/** Whether the extension cannot run on the page at `url` (so no store can talk to it). */
function isUnreachablePage(url: string | undefined): boolean {
  return url !== undefined && UNREACHABLE_SCHEMES.some((scheme) => url.startsWith(scheme));
}

/**
 * What the panel shows while no RestLens store talks to it: why, when it can tell (a page the
 * extension does not run on, or a page that replaced one with a store), and how to add one.
 */
export function NoStore() {
  const url = usePanel((state) => state.pageUrl);
  // A page that had stores went away (navigated or closed) and nothing has spoken since.
  const left = usePanel(
    (state) => !state.pageConnected && state.pageId !== undefined && state.storeOrder.length > 0,
  );
  if (isUnreachablePage(url))
    return (
      <main class="empty-state">
        <h2>RestLens does not run on this page</h2>
        <p>
          Browsers run no extension on <code>{url?.split(':')[0]}:</code> pages. Open the app over{' '}
          <code>http:</code> or <code>https:</code>.
        </p>
      </main>
    );
  return (
    <main class="empty-state">
      <h2>
        {left ? 'The page changed: it has no RestLens store' : 'No RestLens store on this page'}
      </h2>
      {left && (
        <p>
          The store of the page before is gone with it
          {url ? (
            <>
              {' '}
              (now at <code>{url}</code>)
            </>
          ) : null}
          .
        </p>
      )}
      <p>
        To enable it, wrap your app in <code>{'<DataProvider>'}</code> in a development build, or
        call <code>connectDevtools(store)</code>.
      </p>
    </main>
  );
}
