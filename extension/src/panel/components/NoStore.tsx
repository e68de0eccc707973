/** What the panel shows while the page has no RestLens store talking to it. */
export function NoStore() {
  return (
    <main class="empty-state">
      <h2>No RestLens store on this page</h2>
      <p>
        To enable it, wrap your app in <code>{'<DataProvider>'}</code> in a development build, or
        call <code>connectDevtools(store)</code>.
      </p>
    </main>
  );
}
