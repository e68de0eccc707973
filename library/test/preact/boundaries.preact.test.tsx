// @vitest-environment jsdom
/** @jsxImportSource preact */
/**
 * AsyncBoundary and NetworkErrorBoundary in a Preact app: rendered with preact's own `render`,
 * the library's `react` being preact/compat (see useSuspense.preact.test.tsx).
 */
import { Component, type ComponentChildren, type FunctionComponent, render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createResource } from '../../src/index.js';
import {
  type ErrorFallbackProps,
  AsyncBoundary as ReactTypedAsyncBoundary,
  DataProvider as ReactTypedDataProvider,
  useSuspense,
} from '../../src/react/index.js';
import { perTest, serverPerTest } from '../helpers/perTest.js';
import { Todo } from '../rest/support.js';

/** The library's components are preact components here; only their types change. */
const DataProvider = ReactTypedDataProvider as unknown as FunctionComponent<{
  children?: ComponentChildren;
}>;
const AsyncBoundary = ReactTypedAsyncBoundary as unknown as FunctionComponent<{
  fallback?: ComponentChildren;
  errorClassName?: string;
  errorComponent?: FunctionComponent<ErrorFallbackProps>;
  children?: ComponentChildren;
}>;

const server = serverPerTest();
const TodoResource = perTest(() =>
  createResource({ path: '/todos/:id', schema: Todo, urlPrefix: server.url }),
);
let container: HTMLElement;
beforeEach(() => {
  container = document.createElement('div');
  document.body.append(container);
});
afterEach(() => {
  render(null, container);
  container.remove();
});

function Title({ id }: { id: number }) {
  return <p>{useSuspense(TodoResource.get, { id }).title}</p>;
}

function Broken(): null {
  throw new Error('a bug');
}

const Failed = ({ error, className }: ErrorFallbackProps) => (
  <p class={className}>{`failed with ${error.status}`}</p>
);

/** A Preact app's own error boundary, above the AsyncBoundary. */
class Outer extends Component<{ children?: ComponentChildren }, { error?: unknown }> {
  override state: { error?: unknown } = {};
  static override getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override render() {
    return this.state.error === undefined ? this.props.children : <p>outer caught it</p>;
  }
}

function mount(children: ComponentChildren) {
  act(() => {
    render(
      <DataProvider>
        <Outer>
          <AsyncBoundary fallback={<p>loading</p>} errorComponent={Failed} errorClassName="oops">
            {children}
          </AsyncBoundary>
        </Outer>
      </DataProvider>,
      container,
    );
  });
}

describe('AsyncBoundary under preact/compat', () => {
  it('shows its fallback, then the data', async () => {
    server.setDelay(30);
    mount(<Title id={1} />);
    expect(container.textContent).toBe('loading');
    await vi.waitFor(() => expect(container.textContent).toBe('write tests'));
  });

  it('shows errorComponent for a failed request', async () => {
    server.failNext(404);
    mount(<Title id={1} />);
    await vi.waitFor(() => expect(container.textContent).toBe('failed with 404'));
    expect(container.querySelector('p')?.className).toBe('oops');
  });

  it('hands an error without a status on to the app’s boundary', () => {
    mount(<Broken />);
    expect(container.textContent).toBe('outer caught it');
  });
});
