import browser from 'webextension-polyfill';

// The devtools page only registers the panel; the panel page does the rest.
void browser.devtools.panels.create('RestLens', 'icons/icon-32.png', 'panel.html');
