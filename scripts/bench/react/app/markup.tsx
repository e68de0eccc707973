/**
 * What every app of the benchmark renders, the library apps and the plain React one alike, so
 * that they show the same DOM: the markup of a todo and of the project (functions, not
 * components: they add no component to the tree), and the count of component renders.
 */

/** Component renders since the last reset (mounts included). */
export const renders = { count: 0 };

export function todoItem(todo: { id: string; title: string; author: { name: string } }) {
  return (
    <li data-id={todo.id}>
      <span data-title>{todo.title}</span> by <span data-author>{todo.author.name}</span>
    </li>
  );
}

export function projectTitle(project: { name: string }) {
  return <h1 data-project>{project.name}</h1>;
}
