import { useMemo, useState } from 'preact/hooks';
import type { Encoded } from '../../../../library/src/devtools/protocol/messages.js';
import { useRequestRows } from '../context.js';
import { lastEntityChange, lastInvalidation, optimisticOutcome } from '../derive.js';
import { actionName, entityLabel, formatTime, type PlainObject, plainFields } from '../format.js';
import { isInvalidRow, type Row, type StoreView, UNLOADED } from '../model.js';
import { CopyJson } from './CopyJson.js';
import { History, PkOrigin, References } from './EntityRelations.js';
import { FieldEditor } from './FieldEditor.js';
import { ValueTree } from './ValueTree.js';

type Deletion = ReturnType<typeof lastInvalidation>;

/** The selected entity: its fields (each editable), its state, and where it is used. */
export function EntityDetail({ store, type, pk }: { store: StoreView; type: string; pk: string }) {
  useRequestRows(
    store,
    type,
    useMemo(() => [pk], [pk]),
  );
  const row = store.entities[type]?.get(pk);
  const loaded = row === UNLOADED ? undefined : row;
  const invalid = isInvalidRow(row);
  // A deleted entity is still named and shown as it was: the delete carried its last fields.
  const deletion = invalid ? lastInvalidation(store.events, type, pk) : undefined;
  const fields = invalid ? undefined : plainFields(loaded);
  // A row that changed since it came keeps showing until its fresh version comes.
  const stale = store.stale[type]?.has(pk) === true;

  return (
    <article class="entity" aria-label={`${type} ${pk}`}>
      <h2 class="detail-title">
        <span class="mono">
          {type} {pk}
        </span>
        <EntityBadges
          label={invalid ? (deletion?.effect.label ?? '') : entityLabel(row)}
          invalid={invalid}
          absent={row === undefined}
        />
      </h2>
      {(fields || row === UNLOADED) && (
        <EntityFields
          store={store}
          type={type}
          pk={pk}
          loaded={loaded}
          fields={fields}
          busy={stale || row === UNLOADED}
        />
      )}
      <EntityMeta store={store} type={type} pk={pk} row={row} deletion={deletion} />
      {invalid && <DeletedFields type={type} pk={pk} last={deletion?.effect.last} />}
      <History store={store} type={type} pk={pk} />
      <PkOrigin store={store} type={type} pk={pk} />
      <References store={store} type={type} pk={pk} />
    </article>
  );
}

/** Beside the entity's name: its label, and whether it is deleted or not in the store. */
function EntityBadges(props: { label: string; invalid: boolean; absent: boolean }) {
  return (
    <>
      {props.label && <span class="label"> {props.label}</span>}
      {props.invalid && <span class="badge badge-invalid">INVALID</span>}
      {props.absent && <span class="badge">not in the store</span>}
    </>
  );
}

/** The entity's fields as the store holds them, each with an editor; "loading…" until they come. */
function EntityFields(props: {
  store: StoreView;
  type: string;
  pk: string;
  loaded: Encoded | undefined;
  fields: PlainObject | undefined;
  /** The fields shown are not the store's latest yet. */
  busy: boolean;
}) {
  const { store, type, pk, loaded, fields } = props;
  return (
    <section aria-label="Fields" aria-busy={props.busy}>
      <h3>Fields {loaded !== undefined && <CopyJson value={loaded} label={`${type} ${pk}`} />}</h3>
      {store.commandError?.command === 'edit' && (
        <p class="notice notice-error" role="alert">
          {store.commandError.error}
        </p>
      )}
      {fields ? (
        <table class="fields">
          <tbody>
            {Object.entries(fields).map(([field, value]) => (
              <FieldRow
                key={field}
                store={store}
                entity={type}
                pk={pk}
                field={field}
                value={value}
              />
            ))}
          </tbody>
        </table>
      ) : (
        <p class="detail-sub is-loading">loading…</p>
      )}
    </section>
  );
}

/** The entity's state, the event that last changed it, and when the response it came in expires. */
function EntityMeta(props: {
  store: StoreView;
  type: string;
  pk: string;
  row: Row | undefined;
  deletion: Deletion;
}) {
  const { store, row, deletion } = props;
  const invalid = isInvalidRow(row);
  const last = lastEntityChange(store.events, props.type, props.pk);
  // The response that last wrote the entity sets its expiry (what entitiesMeta would hold).
  const written = last?.event.effects.find((effect) => effect.type === 'result-stored');
  return (
    <section aria-label="Meta">
      <h3>Meta</h3>
      <dl class="meta">
        <dt>State</dt>
        <dd>
          {invalid
            ? `${deletion ? `deleted by ${actionName(deletion.event)} #${deletion.event.seq}` : 'deleted'} (INVALID): readers suspend or drop it`
            : row === undefined
              ? 'absent (never stored, or the store was reset)'
              : 'valid'}
        </dd>
        {last && (
          <>
            <dt>Last change</dt>
            <dd>
              #{last.event.seq} {actionName(last.event)}: {last.change}
              {optimisticNote(optimisticOutcome(store.events, last.event))}
            </dd>
          </>
        )}
        {written?.type === 'result-stored' && !invalid && (
          <>
            <dt>Expiry</dt>
            <dd>
              {written.expiresAt <= Date.now()
                ? 'expired'
                : `expires ${formatTime(written.expiresAt)}`}{' '}
              ({written.endpoint}'s response, #{last?.event.seq})
            </dd>
          </>
        )}
      </dl>
    </section>
  );
}

const OPTIMISTIC_NOTES = {
  applied: ' (optimistic: shown before the server answered, not committed yet)',
  committed: ' (optimistic: committed by the server)',
  'rolled-back': ' (optimistic: rolled back, the server refused it)',
} as const;

function optimisticNote(outcome: keyof typeof OPTIMISTIC_NOTES | undefined): string {
  return outcome ? OPTIMISTIC_NOTES[outcome] : '';
}

/** A deleted entity's fields as the store held them just before the delete (read-only). */
function DeletedFields({ type, pk, last }: { type: string; pk: string; last?: Encoded }) {
  const fields = plainFields(last);
  return (
    <section aria-label="Deleted">
      <h3>
        Deleted: last known fields{' '}
        {last !== undefined && <CopyJson value={last} label={`${type} ${pk} before the delete`} />}
      </h3>
      {fields ? (
        <table class="fields">
          <tbody>
            {Object.entries(fields).map(([field, value]) => (
              <tr key={field}>
                <th scope="row" class="mono">
                  {field}
                </th>
                <td class="value">
                  <ValueTree value={value} label={field} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p class="detail-sub">
          Not known: the store held no fields for it when it was deleted, or the delete has left the
          timeline.
        </p>
      )}
    </section>
  );
}

/** One field of the entity: its value as a tree, and an editor for it on demand. */
function FieldRow(props: {
  store: StoreView;
  entity: string;
  pk: string;
  field: string;
  value: Encoded;
}) {
  const { field, value } = props;
  const [editing, setEditing] = useState(false);
  return (
    <tr>
      <th scope="row" class="mono">
        {field}
      </th>
      <td class="value">
        {editing ? (
          <FieldEditor {...props} onDone={() => setEditing(false)} />
        ) : (
          <ValueTree value={value} label={field} />
        )}
      </td>
      <td class="field-actions">
        {!editing && props.store.asOf === undefined && (
          <button
            type="button"
            class="small"
            aria-label={`Edit ${field}`}
            onClick={() => setEditing(true)}
          >
            Edit
          </button>
        )}
      </td>
    </tr>
  );
}
