import { Component, type ReactNode, Suspense, useState } from 'react';
import {
  DataProvider,
  type ErrorFallbackProps,
  NetworkErrorBoundary,
  useController,
  useSuspense,
} from 'restlens/react';
import { control, TodoResource, UserResource } from './resources.js';

export function App() {
  return (
    <DataProvider devtools={{ name: 'Demo todos' }}>
      <main>
        <h1>RestLens demo</h1>
        <ServerControls />
        <ErrorBoundary>
          <Suspense fallback={<p data-testid="loading">Loading…</p>}>
            <Users />
          </Suspense>
        </ErrorBoundary>
      </main>
    </DataProvider>
  );
}

function Users() {
  const users = useSuspense(UserResource.getList);
  const [userId, setUserId] = useState(users[0]?.id ?? 1);
  return (
    <section>
      <nav aria-label="Users">
        {users.map((user) => (
          <button
            type="button"
            key={user.id}
            aria-pressed={user.id === userId}
            data-testid={`user-${user.id}`}
            onClick={() => setUserId(user.id)}
          >
            {user.name}
          </button>
        ))}
      </nav>
      {/* The library's boundary: it shows the list again once a fetch of it brought data. */}
      <NetworkErrorBoundary key={userId} fallbackComponent={ListError}>
        <Suspense fallback={<p data-testid="loading">Loading todos…</p>}>
          <TodoList userId={userId} />
        </Suspense>
      </NetworkErrorBoundary>
    </section>
  );
}

function TodoList({ userId }: { userId: number }) {
  const todos = useSuspense(TodoResource.getList, { userId });
  const controller = useController();
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<number[]>([]);
  const [title, setTitle] = useState('');
  const [error, setError] = useState('');
  const run = (action: Promise<unknown>) =>
    action.then(
      () => setError(''),
      (failure: Error) => setError(failure.message),
    );
  const newTitle = () => title || `Todo ${new Date().toLocaleTimeString()}`;

  return (
    <div>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          run(
            controller.fetch(TodoResource.getList.push, { userId }, { title: newTitle(), userId }),
          );
        }}
      >
        <input
          aria-label="New todo title"
          data-testid="new-title"
          value={title}
          onChange={(event) => setTitle(event.target.value)}
        />
        <button type="submit" data-testid="push">
          Add at end
        </button>
        <button
          type="button"
          data-testid="unshift"
          onClick={() =>
            run(
              controller.fetch(
                TodoResource.getList.unshift,
                { userId },
                { title: newTitle(), userId },
              ),
            )
          }
        >
          Add at start
        </button>
      </form>
      <div className="toolbar">
        <button
          type="button"
          data-testid="next-page"
          onClick={() =>
            run(
              controller
                .fetch(TodoResource.getList.getPage, { userId, page: page + 1 })
                .then(() => setPage(page + 1)),
            )
          }
        >
          Next page
        </button>
        <button
          type="button"
          data-testid="delete-selected"
          disabled={selected.length === 0}
          onClick={() =>
            run(
              controller
                .fetch(TodoResource.deleteMany, { ids: selected.join(',') })
                .then(() => setSelected([])),
            )
          }
        >
          Delete selected
        </button>
        <button
          type="button"
          data-testid="invalidate"
          onClick={() => controller.invalidate(TodoResource.getList, { userId })}
        >
          Invalidate list
        </button>
        <button
          type="button"
          data-testid="expire-all"
          onClick={() => controller.expireAll(() => true)}
        >
          Expire all
        </button>
      </div>
      {error && (
        <p role="alert" data-testid="error">
          {error}
        </p>
      )}
      <ul data-testid="todos">
        {todos.map((todo, index) => (
          // An optimistic todo has no id yet (0): two pending at once must not share a key, or
          // React duplicates or drops rows.
          <li key={todo.id ? todo.pk() : `pending-${index}`} data-testid={`todo-${todo.id}`}>
            <input
              type="checkbox"
              aria-label={`Select ${todo.title}`}
              checked={selected.includes(todo.id)}
              onChange={(event) =>
                setSelected(
                  event.target.checked
                    ? [...selected, todo.id]
                    : selected.filter((id) => id !== todo.id),
                )
              }
            />
            <span className={todo.completed ? 'done' : ''} data-testid="title">
              {todo.title}
            </span>
            <button
              type="button"
              data-testid="toggle"
              onClick={() =>
                run(
                  controller.fetch(
                    TodoResource.partialUpdate,
                    { id: todo.id },
                    { completed: !todo.completed },
                  ),
                )
              }
            >
              {todo.completed ? 'Undo' : 'Done'}
            </button>
            <button
              type="button"
              data-testid="rename"
              onClick={() =>
                run(
                  controller.fetch(
                    TodoResource.update,
                    { id: todo.id },
                    { ...todo, title: `${todo.title}!` },
                  ),
                )
              }
            >
              Rename
            </button>
            <button
              type="button"
              data-testid="delete"
              onClick={() => run(controller.fetch(TodoResource.delete, { id: todo.id }))}
            >
              Delete
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

function ServerControls() {
  const [latency, setLatency] = useState(0);
  return (
    <fieldset>
      <legend>Server</legend>
      <label>
        Latency (ms){' '}
        <input
          type="number"
          data-testid="latency"
          value={latency}
          onChange={(event) => {
            setLatency(Number(event.target.value));
            void control('latency', { ms: Number(event.target.value) });
          }}
        />
      </label>
      <button
        type="button"
        data-testid="fail-next"
        onClick={() => control('fail-next', { status: 500 })}
      >
        Fail next request
      </button>
      <button
        type="button"
        data-testid="reset-server"
        onClick={() => control('reset').then(() => location.reload())}
      >
        Reset server
      </button>
    </fieldset>
  );
}

function ListError({ error }: ErrorFallbackProps) {
  return (
    <p role="alert" data-testid="boundary-error">
      {error.message}
    </p>
  );
}

class ErrorBoundary extends Component<{ children: ReactNode }, { error?: Error }> {
  override state: { error?: Error } = {};
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <p role="alert" data-testid="boundary-error">
        {this.state.error.message}{' '}
        <button type="button" onClick={() => this.setState({ error: undefined })}>
          Retry
        </button>
      </p>
    );
  }
}
