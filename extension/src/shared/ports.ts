import type {
  ExtensionCommand,
  PageMessage,
} from '../../../library/src/devtools/protocol/messages.js';

/** The messages between the extension's own parts (the page protocol travels inside them). */
export const CONTENT_PORT = 'restlens-content';
export const PANEL_PORT = 'restlens-panel';

/** Content script → background. */
export type ContentToBackground =
  | { type: 'page'; message: PageMessage }
  | { type: 'content-hello'; pageId: string };

/** Background → panel. */
export type BackgroundToPanel =
  | { type: 'page'; message: PageMessage }
  /** A content script (re)connected: a new pageId means the page was reloaded. */
  | { type: 'content-connected'; pageId: string }
  | { type: 'content-disconnected' };

/** Panel → background. */
export type PanelToBackground =
  | { type: 'init'; tabId: number }
  | { type: 'command'; command: ExtensionCommand };

/** The part of a runtime Port that the relay and router use (fakes implement it in tests). */
export interface PortLike<In = unknown, Out = unknown> {
  readonly name: string;
  /** Set by the browser on the background's end: who opened the port. */
  readonly sender?: { tab?: { id?: number }; frameId?: number; url?: string; id?: string };
  postMessage(message: Out): void;
  onMessage: { addListener(listener: (message: In) => void): void };
  onDisconnect: { addListener(listener: () => void): void };
  disconnect(): void;
}

/** Retry delays for reconnecting ports: 100 ms doubling up to 5 s. */
export function backoff(attempt: number): number {
  return Math.min(5000, 100 * 2 ** attempt);
}

/** A port that stays up this long proves the background is there: the backoff starts over. */
export const STABLE_PORT_MS = 1000;

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
