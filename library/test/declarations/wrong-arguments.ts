/**
 * Calls with one wrong argument each (marked `// wrong`): the declaration tests require exactly
 * one error for each, never "No overload matches this call" (an endpoint and `useSuspense` have
 * one call signature).
 */
import { createResource, createStore, Entity } from 'restlens';
import { useSuspense } from 'restlens/react';

class Todo extends Entity {
  id = 0;
  title = '';
  pk() {
    return `${this.id}`;
  }
}

const TodoResource = createResource({
  path: '/todos/:id',
  schema: Todo,
  body: {} as { title: string },
  searchParams: {} as { userId?: number },
});
const { controller } = createStore();

export function WrongArguments() {
  TodoResource.get({ idd: 1 }); // wrong
  TodoResource.getList({ userId: 'one' }); // wrong
  TodoResource.getList.push({ userId: 1 }, { title: 5 }); // wrong
  TodoResource.update({ id: 1 }, { titel: 'x' }); // wrong
  controller.fetch(TodoResource.get, { idd: 1 }); // wrong
  controller.fetch(TodoResource.getList.push, { title: 5 }); // wrong
  useSuspense(TodoResource.get, { idd: 1 }); // wrong
  useSuspense(TodoResource.getList, { userId: 'one' }); // wrong
}
