import type { EndpointInterface } from '../endpoint/types.js';
import type { Controller } from './Controller.js';
import { keyOf } from './keyOf.js';
import { assertFetchable } from './reading.js';

/** One subscribed call, polled at the shortest frequency its subscribers asked for. */
interface Polling {
  /** The call the newest subscriber made (its request init may be the newest too). */
  endpoint: EndpointInterface;
  args: readonly unknown[];
  /** How many subscribers asked for each frequency (ms). */
  subscribers: Map<number, number>;
  frequency: number;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * The `pollFrequency` an endpoint asks to be polled at; undefined when it has none. Refused,
 * naming the endpoint: a mutation (polling would repeat it), and a value that is not a positive
 * number of ms (it would poll in a busy loop, or never).
 */
export function pollFrequencyOf(caller: string, endpoint: EndpointInterface): number | undefined {
  const frequency: unknown = endpoint.pollFrequency;
  if (frequency === undefined) return undefined;
  if (endpoint.sideEffect) {
    throw new TypeError(`${caller}: ${endpoint.name} is a mutation; only reads are polled`);
  }
  if (typeof frequency !== 'number' || !(frequency > 0) || !Number.isFinite(frequency)) {
    throw new TypeError(
      process.env.NODE_ENV !== 'production'
        ? `${caller}: ${endpoint.name}'s pollFrequency must be a positive number of ms, not ${String(frequency)}`
        : `${caller}: ${endpoint.name}'s pollFrequency is not a positive number`,
    );
  }
  return frequency;
}

/**
 * Runs `change` with the key and poll frequency of `endpoint(...args)` (`controller.subscribe`,
 * `controller.unsubscribe`), and resolves; rejects (a throw in the executor does) an endpoint
 * that cannot be polled. A `null` argument does nothing.
 */
function changeSubscription(
  caller: string,
  endpoint: EndpointInterface,
  args: readonly unknown[],
  change: (key: string, frequency: number) => void,
): Promise<void> {
  return new Promise((resolve) => {
    if (args[0] !== null) {
      const key = keyOf(caller, endpoint, args);
      assertFetchable(caller, endpoint);
      const frequency = pollFrequencyOf(caller, endpoint);
      if (frequency === undefined) {
        throw new TypeError(
          process.env.NODE_ENV !== 'production'
            ? `${caller}: ${endpoint.name} has no pollFrequency, so nothing says how often to fetch it; give it one (extend({ pollFrequency: 10_000 }))`
            : `${caller}: ${endpoint.name} has no pollFrequency`,
        );
      }
      change(key, frequency);
    }
    resolve();
  });
}

/**
 * Keeps subscribed calls fresh (`controller.subscribe`, `useSubscription`, `useLive`): each is
 * fetched again whenever its stored data is `frequency` ms old, as data-client's polling
 * subscriptions do. One timer per call however many subscribe, at the shortest frequency any
 * of them asked for. Data fetched by other means (a refetch, a mutation's answer) postpones the
 * next poll, and no poll is sent while the browser says it is offline.
 */
export class Subscriptions {
  private readonly byKey = new Map<string, Polling>();

  /** `causes` is read at each poll: createStore sets it after the Controller is made. */
  constructor(private readonly controller: Pick<Controller, 'fetch' | 'getState' | 'causes'>) {}

  /** `controller.subscribe(endpoint, ...args)`. */
  subscribe(endpoint: EndpointInterface, args: readonly unknown[]): Promise<void> {
    return changeSubscription('controller.subscribe', endpoint, args, (key, frequency) =>
      this.add(key, endpoint, args, frequency),
    );
  }

  /** `controller.unsubscribe(endpoint, ...args)`. */
  unsubscribe(endpoint: EndpointInterface, args: readonly unknown[]): Promise<void> {
    return changeSubscription('controller.unsubscribe', endpoint, args, (key, frequency) =>
      this.remove(key, frequency),
    );
  }

  private add(
    key: string,
    endpoint: EndpointInterface,
    args: readonly unknown[],
    frequency: number,
  ): void {
    const polling = this.byKey.get(key);
    if (polling === undefined) {
      const subscribers = new Map([[frequency, 1]]);
      const created: Polling = { endpoint, args, subscribers, frequency, timer: undefined };
      this.byKey.set(key, created);
      this.due(key, created);
      return;
    }
    polling.endpoint = endpoint;
    polling.args = args;
    polling.subscribers.set(frequency, (polling.subscribers.get(frequency) ?? 0) + 1);
    if (frequency < polling.frequency) {
      polling.frequency = frequency;
      this.due(key, polling);
    }
  }

  /** Ends one `add` of this frequency; an unknown one does nothing. */
  private remove(key: string, frequency: number): void {
    const polling = this.byKey.get(key);
    const count = polling?.subscribers.get(frequency);
    if (polling === undefined || count === undefined) return;
    if (count > 1) {
      polling.subscribers.set(frequency, count - 1);
      return;
    }
    polling.subscribers.delete(frequency);
    if (polling.subscribers.size === 0) {
      clearTimeout(polling.timer);
      this.byKey.delete(key);
      return;
    }
    const shortest = Math.min(...polling.subscribers.keys());
    if (shortest !== polling.frequency) {
      polling.frequency = shortest;
      this.due(key, polling);
    }
  }

  /** The frequency (ms) each subscribed call is polled at now, by result key. */
  frequencies(): Map<string, number> {
    return new Map([...this.byKey].map(([key, polling]) => [key, polling.frequency]));
  }

  /** Polls the call if its data is `frequency` old, and sets the timer for the next time it is. */
  private due(key: string, polling: Polling): void {
    clearTimeout(polling.timer);
    // When the request behind the stored result started (0 when none is stored).
    const fetchedAt = this.controller.getState().meta.get(key)?.fetchedAt ?? 0;
    let wait = fetchedAt + polling.frequency - Date.now();
    if (wait <= 0) {
      if (!offline()) this.poll(polling);
      wait = polling.frequency;
    }
    // Longer timers fire at once (they overflow): a far poll is reached in steps.
    polling.timer = setTimeout(() => this.due(key, polling), Math.min(wait, LONGEST_TIMER));
  }

  /** Fetches the call in the background: nobody awaits it, its failure is stored for its readers. */
  private poll({ endpoint, args, frequency }: Polling): void {
    const { controller } = this;
    const poll = () =>
      controller.fetch(endpoint, ...(args as Parameters<EndpointInterface>)).catch(() => {});
    if (process.env.NODE_ENV !== 'production' && controller.causes)
      controller.causes.run({ kind: 'poll', frequency }, undefined, poll);
    else poll();
  }
}

/** The longest delay `setTimeout` keeps (2^31 - 1 ms, about 24.8 days). */
const LONGEST_TIMER = 2 ** 31 - 1;

function offline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}
