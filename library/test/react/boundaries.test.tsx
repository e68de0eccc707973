// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { createStore, NetworkError, SchemaError } from '../../src/index.js';
import {
  AsyncBoundary,
  DataProvider,
  type ErrorFallbackProps,
  NetworkErrorBoundary,
  useSuspense,
} from '../../src/react/index.js';
import { perTest, serverPerTest } from '../helpers/perTest.js';
import { ErrorBoundary, renderInApp, todoResource } from './support.js';

const server = serverPerTest();
const TodoResource = perTest(() => todoResource(server.url));
afterEach(cleanup);

function TodoTitle({ id }: { id: number }) {
  return <p>{useSuspense(TodoResource.get, { id }).title}</p>;
}

/** A component with a bug: its error has no status. */
function Broken(): ReactNode {
  throw new Error('a bug');
}

/** What the fallback components of these tests were given, render by render. */
let fallbackProps: ErrorFallbackProps[] = [];
afterEach(() => {
  fallbackProps = [];
});

function Failed(props: ErrorFallbackProps) {
  fallbackProps.push(props);
  return <p className={props.className}>{`failed with ${props.error.status}`}</p>;
}

/** `children` in a DataProvider and an outer error boundary, which records what it caught. */
function renderWithOuterBoundary(children: ReactNode) {
  const caught: unknown[] = [];
  render(
    <DataProvider store={createStore()}>
      <ErrorBoundary onError={(error) => caught.push(error)}>{children}</ErrorBoundary>
    </DataProvider>,
    { onCaughtError: () => {} },
  );
  return caught;
}

describe('NetworkErrorBoundary', () => {
  it('shows fallbackComponent with the error and its className for a failed request', async () => {
    server.failNext(404);
    const log = renderInApp(
      <NetworkErrorBoundary fallbackComponent={Failed} className="oops">
        <TodoTitle id={1} />
      </NetworkErrorBoundary>,
      { onCaughtError: () => {} },
    );
    const shown = await screen.findByText('failed with 404');
    expect(shown.className).toBe('oops');
    expect(fallbackProps.at(-1)?.error).toBeInstanceOf(NetworkError);
    expect(fallbackProps.at(-1)?.className).toBe('oops');
    // It stopped there: the outer boundary caught nothing.
    expect(log.caught).toEqual([]);
  });

  it('shows its children again once a fetch of the failed result brought data, and not before', async () => {
    const store = createStore();
    server.failNext(404);
    renderInApp(
      <NetworkErrorBoundary fallbackComponent={Failed}>
        <TodoTitle id={1} />
      </NetworkErrorBoundary>,
      { store, onCaughtError: () => {} },
    );
    await screen.findByText('failed with 404');
    // Another result's change leaves the error shown.
    await act(() => store.controller.fetch(TodoResource.get, { id: 2 }));
    expect(screen.getByText('failed with 404')).toBeTruthy();
    await act(() => store.controller.fetch(TodoResource.get, { id: 1 }));
    expect(await screen.findByText(server.todos[0]?.title as string)).toBeTruthy();
    expect(screen.queryByText('failed with 404')).toBeNull();
  });

  it('shows the status and status text by default', async () => {
    server.failNext(404);
    renderInApp(
      <NetworkErrorBoundary>
        <TodoTitle id={1} />
      </NetworkErrorBoundary>,
      { onCaughtError: () => {} },
    );
    expect((await screen.findByText('404 Not Found')).tagName).toBe('DIV');
  });

  it('catches any error with a status: a response that does not fit the schema (400)', async () => {
    server.respondNext({ body: { title: 'a todo without its id' } });
    renderInApp(
      <NetworkErrorBoundary fallbackComponent={Failed}>
        <TodoTitle id={1} />
      </NetworkErrorBoundary>,
      { onCaughtError: () => {} },
    );
    await screen.findByText('failed with 400');
    expect(fallbackProps.at(-1)?.error).toBeInstanceOf(SchemaError);
  });

  it('hands any other error on to the next boundary up, without showing its fallback', () => {
    const caught = renderWithOuterBoundary(
      <NetworkErrorBoundary fallbackComponent={Failed}>
        <Broken />
      </NetworkErrorBoundary>,
    );
    expect(screen.getByRole('alert').textContent).toBe('error: a bug (status undefined)');
    expect(caught).toEqual([new Error('a bug')]);
    expect(fallbackProps).toEqual([]);
  });

  it('hands on a thrown value that is not an object', () => {
    function ThrowsText(): ReactNode {
      throw 'not an error';
    }
    const caught = renderWithOuterBoundary(
      <NetworkErrorBoundary fallbackComponent={Failed}>
        <ThrowsText />
      </NetworkErrorBoundary>,
    );
    expect(caught).toEqual(['not an error']);
    expect(fallbackProps).toEqual([]);
  });
});

describe('AsyncBoundary', () => {
  it('shows its fallback while the data loads, then the data', async () => {
    server.setDelay(30);
    renderWithOuterBoundary(
      <AsyncBoundary fallback={<p>loading</p>}>
        <TodoTitle id={1} />
      </AsyncBoundary>,
    );
    expect(screen.getByText('loading')).toBeTruthy();
    expect(await screen.findByText('write tests')).toBeTruthy();
  });

  it('shows errorComponent, given errorClassName, for a failed request', async () => {
    server.failNext(404);
    const caught = renderWithOuterBoundary(
      <AsyncBoundary fallback={<p>loading</p>} errorComponent={Failed} errorClassName="oops">
        <TodoTitle id={1} />
      </AsyncBoundary>,
    );
    expect((await screen.findByText('failed with 404')).className).toBe('oops');
    expect(fallbackProps.at(-1)?.error).toBeInstanceOf(NetworkError);
    expect(caught).toEqual([]);
  });

  it('shows the status and status text without an errorComponent', async () => {
    server.failNext(404);
    renderWithOuterBoundary(
      <AsyncBoundary>
        <TodoTitle id={1} />
      </AsyncBoundary>,
    );
    expect(await screen.findByText('404 Not Found')).toBeTruthy();
  });

  it('hands an error without a status on to the next boundary up', () => {
    const caught = renderWithOuterBoundary(
      <AsyncBoundary errorComponent={Failed}>
        <Broken />
      </AsyncBoundary>,
    );
    expect(caught).toEqual([new Error('a bug')]);
    expect(fallbackProps).toEqual([]);
  });
});
