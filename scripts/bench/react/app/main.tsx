/** The benchmark page's entry: `fetch` goes to the in-memory server, then the app starts. */
import { startBench } from './harness.js';
import { installServer } from './server.js';

/** Set by the build: the library this page runs on. */
declare const LIBRARY: string;

installServer();
startBench(LIBRARY);
