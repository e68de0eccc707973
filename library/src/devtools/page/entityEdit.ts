import type { EndpointInterface } from '../../endpoint/types.js';
import { pkOf } from '../../schema/Entity.js';
import { isInvalid } from '../../schema/invalid.js';
import type { EntityStatics } from '../../schema/types.js';
import type { Controller } from '../../store/Controller.js';
import { type EditCommand, type Encoded, editEndpointName } from '../protocol/messages.js';

/** What an edit changes: one field of one entity. */
interface FieldEdit {
  pk: string;
  field: string;
  value: Encoded;
}

/**
 * Edits made from the panel: one field of a stored entity, written through the store's own write
 * path (`controller.fetch` of an edit endpoint whose schema is the entity's class). The edit is
 * then an ordinary mutation: it shows in the timeline, updates every reader, can be recorded, and
 * replays by its endpoint's name.
 */
export class EntityEditor {
  private readonly endpoints = new Map<string, EndpointInterface>();

  constructor(
    private readonly controller: Controller,
    /** The Entity class of a type, among the schemas of the endpoints that ran. */
    private readonly entityClass: (type: string) => EntityStatics | undefined,
  ) {}

  /** Writes the edit; answers what went wrong, in words, or undefined. */
  async edit({ entity, pk, field, value }: EditCommand): Promise<string | undefined> {
    const row = this.controller.getState().entities.get(entity)?.get(pk);
    const name = `${entity} ${JSON.stringify(pk)}`;
    if (row === undefined) return `edit: the store holds no ${name}`;
    if (isInvalid(row)) return `edit: ${name} was deleted (INVALID)`;
    if (!Object.hasOwn(row as object, field))
      return `edit: ${name} has no field ${JSON.stringify(field)}`;
    const entityClass = this.entityClass(entity);
    if (!entityClass) return `edit: no endpoint that ran uses the ${entity} schema`;
    const edited = editedRow(row as Record<string, unknown>, { pk, field, value });
    let editedPk: string | undefined;
    try {
      editedPk = pkOf(entityClass, edited);
    } catch (error) {
      // The app's pk() reads the row as it expects it, and the edit may be what it does not expect.
      return `edit: the pk of ${name} cannot be worked out once ${JSON.stringify(field)} is changed: ${String(error)}`;
    }
    if (editedPk !== pk)
      return `edit: changing ${JSON.stringify(field)} would change the pk of ${name}`;
    try {
      await this.controller.fetch(this.endpointFor(entityClass), { pk, field, value });
      return undefined;
    } catch (error) {
      return `edit: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  /** One edit endpoint per entity type (a replay finds it by name). */
  private endpointFor(entityClass: EntityStatics): EndpointInterface {
    const type = entityClass.key;
    let endpoint = this.endpoints.get(type);
    if (!endpoint) {
      const { controller } = this;
      // Run (again, by a replay) against the row as stored then: only the field changes.
      const run = async (edit: FieldEdit) => {
        const row = controller.getState().entities.get(type)?.get(edit.pk);
        if (row === undefined || isInvalid(row))
          throw new Error(`the store holds no ${type} ${JSON.stringify(edit.pk)}`);
        return editedRow(row as Record<string, unknown>, edit);
      };
      endpoint = Object.assign(run, {
        key: (edit: FieldEdit) => `${editEndpointName(type)} ${JSON.stringify(edit.pk)}`,
        schema: entityClass,
        sideEffect: true as const,
      });
      Object.defineProperty(endpoint, 'name', { value: editEndpointName(type) });
      this.endpoints.set(type, endpoint);
    }
    return endpoint;
  }
}

/** The row with one field set; a field named `__proto__` stays a plain field. */
function editedRow(row: Record<string, unknown>, { field, value }: FieldEdit) {
  return { ...row, [field]: value };
}
