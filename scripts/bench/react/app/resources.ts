/**
 * The app's entities and resources, written once against RestLens; the data-client build runs
 * this same source on `@data-client/rest` (see data-client/).
 */
import { createResource, Entity } from 'restlens';

export class User extends Entity {
  id = '';
  name = '';
  pk() {
    return this.id;
  }
  static override key = 'User';
}

export class Todo extends Entity {
  id = '';
  title = '';
  completed = false;
  author = User.fromJS();
  pk() {
    return this.id;
  }
  static override key = 'Todo';
  static override schema = { author: User };
}

export class Project extends Entity {
  id = '';
  name = '';
  pk() {
    return this.id;
  }
  static override key = 'Project';
}

// Nothing goes stale during a run: a background refetch would land in some samples only.
export const TodoResource = createResource({
  path: '/todos/:id',
  schema: Todo,
  dataExpiryLength: Infinity,
});
export const UserResource = createResource({
  path: '/users/:id',
  schema: User,
  dataExpiryLength: Infinity,
});
export const ProjectResource = createResource({
  path: '/projects/:id',
  schema: Project,
  dataExpiryLength: Infinity,
});
