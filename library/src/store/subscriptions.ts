import type { EndpointInterface } from '../endpoint/types.js';

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
 * Keeps subscribed calls fresh (`controller.subscribe`, `useSubscription`, `useLive`): each is
 * fetched again whenever its stored data is `frequency` ms old, as data-client's polling
 * subscriptions do. One timer per call however many subscribe, at the shortest frequency any
 * of them asked for. Data fetched by other means (a refetch, a mutation's answer) postpones the
 * next poll, and no poll is sent while the browser says it is offline.
 */
export class Subscriptions {
  private readonly byKey = new Map<string, Polling>();

  constructor(
    /** Fetches the call in the background: its failure is stored for its readers. */
    private readonly poll: (
      endpoint: EndpointInterface,
      args: readonly unknown[],
      frequency: number,
    ) => void,
    /** When the request behind the stored result of `key` started (0 when none is stored). */
    private readonly fetchedAt: (key: string) => number,
  ) {}

  add(key: string, endpoint: EndpointInterface, args: readonly unknown[], frequency: number): void {
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
  remove(key: string, frequency: number): void {
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
    let wait = this.fetchedAt(key) + polling.frequency - Date.now();
    if (wait <= 0) {
      if (!offline()) this.poll(polling.endpoint, polling.args, polling.frequency);
      wait = polling.frequency;
    }
    // Longer timers fire at once (they overflow): a far poll is reached in steps.
    polling.timer = setTimeout(() => this.due(key, polling), Math.min(wait, LONGEST_TIMER));
  }
}

/** The longest delay `setTimeout` keeps (2^31 - 1 ms, about 24.8 days). */
const LONGEST_TIMER = 2 ** 31 - 1;

function offline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}
