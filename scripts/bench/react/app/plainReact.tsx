/**
 * The entry of the plain React page: the same app with no data library, as the floor under both
 * libraries' times (data-client's browser benchmark has such a baseline too). It fetches from the
 * same in-memory server, parses the JSON answer and keeps it in component state itself, and each
 * change updates exactly what the answer changed, rendered at once (`flushSync`, the soonest React
 * can show it): the same requests, the same DOM and the same renders as a library that renders
 * only the components whose reading changed. What a library's time adds to this page's is that
 * library's own cost.
 */
import { memo, useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import { startBench } from './harness.js';
import { projectTitle, renders, todoItem } from './markup.js';
import {
  installServer,
  PROJECT_ID,
  type ProjectData,
  type TodoData,
  type UserData,
} from './server.js';

/** One request to the server, its answer read as the libraries read it: JSON. */
async function request<T>(method: string, path: string, body?: object): Promise<T> {
  const response = await fetch(path, {
    method,
    headers: { 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await response.json()) as T;
}

/** How the mounted app's state is changed: set once it mounted; each change renders at once. */
interface Setters {
  setTodos(change: (todos: TodoData[]) => TodoData[]): void;
  setProject(project: ProjectData): void;
}

function PlainApp({ onSetters }: { onSetters(setters: Setters): void }) {
  const [todos, setTodos] = useState<TodoData[]>();
  const [project, setProject] = useState<ProjectData>();
  useEffect(() => {
    onSetters({
      setTodos: (change) => flushSync(() => setTodos((current) => current && change(current))),
      setProject: (project) => flushSync(() => setProject(project)),
    });
    void request<TodoData[]>('GET', '/todos').then(setTodos);
    void request<ProjectData>('GET', `/projects/${PROJECT_ID}`).then(setProject);
  }, [onSetters]);
  if (todos === undefined || project === undefined) return <p>Loading…</p>;
  return (
    <>
      <PlainProject project={project} />
      <PlainList todos={todos} />
    </>
  );
}

// Each part renders only when its own data changed, as a library's readers do.
const PlainProject = memo(function PlainProject({ project }: { project: ProjectData }) {
  renders.count++;
  return projectTitle(project);
});

const PlainList = memo(function PlainList({ todos }: { todos: TodoData[] }) {
  renders.count++;
  return (
    <ul data-list>
      {todos.map((todo) => (
        <PlainRow key={todo.id} todo={todo} />
      ))}
    </ul>
  );
});

const PlainRow = memo(function PlainRow({ todo }: { todo: TodoData }) {
  renders.count++;
  return todoItem(todo);
});

let setters: Setters | undefined;
const mounted = () => {
  if (!setters) throw new Error('mount the app first');
  return setters;
};
const keepSetters = (current: Setters) => {
  setters = current;
};

installServer();
startBench('plain React', {
  mount: (root, key) => root.render(<PlainApp key={key} onSetters={keepSetters} />),
  async updateTodo(id, title) {
    const todo = await request<TodoData>('PATCH', `/todos/${id}`, { title });
    mounted().setTodos((todos) => todos.map((each) => (each.id === id ? todo : each)));
  },
  async updateAuthor(id, name) {
    const author = await request<UserData>('PATCH', `/users/${id}`, { name });
    mounted().setTodos((todos) =>
      todos.map((todo) => (todo.author.id === id ? { ...todo, author } : todo)),
    );
  },
  async unshiftTodo(title) {
    const todo = await request<TodoData>('POST', '/todos', { title });
    mounted().setTodos((todos) => [todo, ...todos]);
  },
  async deleteTodo(id) {
    await request('DELETE', `/todos/${id}`);
    mounted().setTodos((todos) => todos.filter((todo) => todo.id !== id));
  },
  async updateProject(name) {
    mounted().setProject(await request<ProjectData>('PATCH', `/projects/${PROJECT_ID}`, { name }));
  },
});
