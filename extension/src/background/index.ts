import browser from 'webextension-polyfill';
import { Router } from './router.js';

const router = new Router({
  extensionId: browser.runtime.id,
  panelUrl: browser.runtime.getURL('panel.html'),
});
browser.runtime.onConnect.addListener((port) => router.accept(port));
