import browser from 'webextension-polyfill';
import { ContentRelay } from './relay.js';

new ContentRelay({
  window,
  connect(name) {
    try {
      return browser.runtime.id ? browser.runtime.connect({ name }) : undefined;
    } catch {
      return undefined; // the extension context was invalidated (reloaded or removed)
    }
  },
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  warn: (message) => console.warn(message),
});
