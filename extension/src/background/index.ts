import browser from 'webextension-polyfill';
import { Router } from './router.js';

const router = new Router();
browser.runtime.onConnect.addListener((port) => router.accept(port));
