// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createResource, createStore, Entity } from '../../src/index.js';
import { useSuspense } from '../../src/react/index.js';
import { serverPerTest } from '../helpers/perTest.js';
import { isShown, renderInApp } from './support.js';

/**
 * A component that writes to what `useSuspense` gave it fails where it writes (in development the
 * store's values are frozen); the store, and every other reader of the entity, keep the data.
 */

const server = serverPerTest();
afterEach(cleanup);

class Article extends Entity {
  id = 0;
  title = '';
  tags: string[] = [];
  pk() {
    return this.id;
  }
  static override key = 'Article';
}

describe('values read with useSuspense', () => {
  it('throw on a write to their lists, and the stored row and other readers keep the data', async () => {
    const R = createResource({ path: '/articles/:id', schema: Article, urlPrefix: server.url });
    const store = createStore();
    const failures: unknown[] = [];
    function Editor() {
      const article = useSuspense(R.get, { id: 1 });
      const tag = () => {
        try {
          article.tags.push('draft');
        } catch (error) {
          failures.push(error);
        }
      };
      return (
        <button type="button" onClick={tag}>
          tag {article.title}
        </button>
      );
    }
    function Tags() {
      const article = useSuspense(R.get, { id: 1 });
      return <p>tags [{article.tags.join(',')}]</p>;
    }
    server.respondNext({ body: { id: 1, title: 'values', tags: ['a'] } });
    renderInApp(
      <>
        <Editor />
        <Tags />
      </>,
      { store },
    );
    await waitFor(() => expect(isShown('tag values')).toBe(true));

    act(() => {
      fireEvent.click(screen.getByText('tag values'));
    });
    expect(failures).toHaveLength(1);
    expect(failures[0]).toBeInstanceOf(TypeError);
    expect(store.getState().entities.get('Article')?.get('1')).toEqual({
      id: 1,
      title: 'values',
      tags: ['a'],
    });
    expect(store.controller.getResponse(R.get, { id: 1 }, store.getState()).data?.tags).toEqual([
      'a',
    ]);
    expect(isShown('tags [a]')).toBe(true);
  });
});
