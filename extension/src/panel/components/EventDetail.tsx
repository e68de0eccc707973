import type {
  Effect,
  EntityUpdate,
  StoreEvent,
} from '../../../../library/src/devtools/protocol/effects.js';
import type { Encoded } from '../../../../library/src/devtools/protocol/messages.js';
import { useConnection, usePanel, usePanelActions } from '../context.js';
import { OPTIMISTIC_LABELS } from '../derive.js';
import {
  describeEffect,
  type EntityNamer,
  eventNamer,
  formatTime,
  rollbackLines,
} from '../format.js';
import { optimisticOrigin, type StoreView } from '../model.js';
import { startTimeTravel } from '../timeTravel.js';
import { memo } from './memo.js';
import { ResultValue } from './ResultValue.js';
import { ValueTree } from './ValueTree.js';
import { Why } from './Why.js';

/**
 * One event in full, beside the timeline: its call with every value as a tree (nothing cut
 * without a way to read the rest), and its effects, each changed field as before → after.
 */
export function EventDetail({ store, event }: { store: StoreView; event: StoreEvent }) {
  const { action } = event;
  return (
    <article class="event-detail" aria-label={`Event #${event.seq}`}>
      <h2 class="detail-title">
        #{event.seq} <span class="kind">{action.type}</span>{' '}
        {action.endpoint && <span class="mono">{action.endpoint}</span>}
      </h2>
      <p class="detail-sub">
        {formatTime(event.time)}
        {action.method ? ` · ${action.method} ${action.url}` : ''}
        {action.duration !== undefined ? ` · answered in ${action.duration} ms` : ''}
        {action.optimistic ? ` · ${OPTIMISTIC_LABELS[action.optimistic]}` : ''}
      </p>
      <ViewStateHere store={store} seq={event.seq} />
      <Why action={action} />
      <EventValuesAndChanges event={event} undone={optimisticOrigin(store.events, event)} />
    </article>
  );
}

/**
 * An event's values and changes, with what it rolled back (`undone`). They never change: the
 * trees are not rendered again while events come in behind the one shown.
 */
const EventValuesAndChanges = memo(
  ({ event, undone }: { event: StoreEvent; undone: StoreEvent | undefined }) => {
    const { action } = event;
    const values: [string, Encoded | undefined][] = [
      ['args', action.args],
      ['body', action.body],
      ['response', action.response],
      ['error', action.error],
    ];
    return (
      <>
        {action.key && (
          <p class="detail-sub">
            key <code>{action.key}</code>
          </p>
        )}
        {values.map(([name, value]) =>
          value === undefined ? null : (
            <section key={name} aria-label={name} class="event-value">
              <h3>{name}</h3>
              <ValueTree value={value} label={name} copyable />
            </section>
          ),
        )}
        <section aria-label="Changes">
          <h3>Changes</h3>
          {event.effectsOmitted ? (
            <p class="detail-sub">Left out: too large for one message.</p>
          ) : event.effects.length === 0 && !undone ? (
            <p class="detail-sub">No effect on the store.</p>
          ) : (
            <ul class="plain changes">
              {event.effects.map((effect, index) => (
                // Effects have no identity of their own; their order is the event's.
                // biome-ignore lint/suspicious/noArrayIndexKey: an event's effects never reorder
                <EffectItem key={index} effect={effect} name={eventNamer(event)} />
              ))}
              {undone &&
                rollbackLines(undone).map((line) => (
                  <li key={line.text} class="tone-remove">
                    {line.text}
                  </li>
                ))}
            </ul>
          )}
        </section>
      </>
    );
  },
);

function EffectItem({ effect, name }: { effect: Effect; name: EntityNamer }) {
  const { selectEntity } = usePanelActions();
  if (effect.type === 'entities-updated')
    return (
      <li>
        {effect.updates.map((update) => (
          <FieldDiff
            key={update.pk}
            entity={effect.entity}
            update={update}
            name={name(effect.entity, update.pk)}
            onOpen={() => selectEntity(effect.entity, update.pk)}
          />
        ))}
      </li>
    );
  if (effect.type === 'result-stored' && effect.kept && effect.result !== undefined)
    return (
      <li>
        stored {effect.key} ({effect.endpoint}):
        <ResultValue value={effect.result} label={`result of ${effect.key}`} />
      </li>
    );
  return <li>{describeEffect(effect, name)}</li>;
}

/** One entity's changed fields, each as its value before → after. */
export function FieldDiff(props: {
  entity: string;
  update: EntityUpdate<Encoded>;
  /** The entity as descriptions name it (see entityName). */
  name: string;
  onOpen(): void;
}) {
  const { entity, update } = props;
  return (
    <div class="field-diff">
      <button type="button" class="link" onClick={props.onOpen}>
        updated {props.name}
      </button>
      {update.fields.length === 0 ? (
        <span class="detail-sub"> no field changed</span>
      ) : (
        <table class="fields diff" aria-label={`Changes to ${entity} ${update.pk}`}>
          <thead>
            <tr>
              <th scope="col">field</th>
              <th scope="col">before</th>
              <th scope="col">after</th>
            </tr>
          </thead>
          <tbody>
            {update.fields.map(({ field, before, after }) => (
              <tr key={field}>
                <th scope="row" class="mono">
                  {field}
                </th>
                <td class="value before">
                  <ValueTree value={before} label={`${field} before`} />
                </td>
                <td class="value after">
                  <ValueTree value={after} label={`${field} after`} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

/** "View state here": the views of the store's state show it as of this event (read-only). */
function ViewStateHere({ store, seq }: { store: StoreView; seq: number }) {
  const connection = useConnection();
  const travel = usePanel((state) => state.timeTravel);
  const { setTimeTravel } = usePanelActions();
  const here = travel?.storeId === store.id && travel.seq === seq;
  return (
    <p>
      <button
        type="button"
        aria-pressed={here}
        onClick={() => {
          const { travel: started, commands } = startTimeTravel(store, seq);
          setTimeTravel(started);
          for (const command of commands) connection.send(command);
        }}
      >
        View state here
      </button>
    </p>
  );
}
