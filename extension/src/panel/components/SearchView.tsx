import { useEffect, useState } from 'preact/hooks';
import { MAX_SEARCH_LENGTH } from '../../../../library/src/devtools/protocol/messages.js';
import { useConnection, usePanelActions } from '../context.js';
import type { ViewProps } from '../views.js';

/** How long typing pauses before the page is asked: one search per word, not per key. */
const TYPING_PAUSE_MS = 150;

/**
 * Searches the stored entities' values: every field (of every type) that contains the text, with
 * the field that matched; a match opens its entity in the Entities view.
 */
export function SearchView({ store }: ViewProps) {
  const connection = useConnection();
  const { selectEntity } = usePanelActions();
  const [text, setText] = useState(store.search?.text ?? '');
  useEffect(() => {
    if (text === '') return;
    const timer = setTimeout(
      () => connection.send({ kind: 'search', storeId: store.id, text }),
      TYPING_PAUSE_MS,
    );
    return () => clearTimeout(timer);
  }, [connection, store.id, text]);
  const answer = store.search?.text === text ? store.search : undefined;
  return (
    <section class="pane search-view" aria-label="Search values">
      <div class="toolbar">
        <input
          type="search"
          class="filter"
          aria-label="Search entity values"
          placeholder="Find entities whose fields contain…"
          maxLength={MAX_SEARCH_LENGTH}
          value={text}
          onInput={(event) => setText(event.currentTarget.value)}
        />
      </div>
      {text === '' ? (
        <p class="notice">Type a text: every stored entity whose fields contain it is listed.</p>
      ) : answer === undefined ? (
        <p class="notice is-loading" role="status">
          Searching…
        </p>
      ) : answer.matches.length === 0 ? (
        <p class="notice" role="status">
          No entity field contains “{text}”.
        </p>
      ) : (
        <>
          <p class="detail-sub" role="status">
            {answer.matches.length}
            {answer.more ? '+' : ''} {answer.matches.length === 1 ? 'match' : 'matches'}
          </p>
          <ul class="plain search-matches" aria-label="Matches">
            {answer.matches.map(({ entity, pk, field, value }) => (
              <li key={`${entity} ${pk} ${field}`}>
                <button type="button" class="link" onClick={() => selectEntity(entity, pk)}>
                  <span class="mono">
                    {entity} {pk}
                  </span>
                </button>{' '}
                <span class="mono">{field}</span>: {value}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
