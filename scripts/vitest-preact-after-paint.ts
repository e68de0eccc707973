import { afterAll } from 'vitest';

/**
 * preact runs effects after the next frame: on `requestAnimationFrame` or, at most 35 ms later, on
 * a timer that then cancels the frame. A timer left by a file's last render fires after vitest has
 * taken the file's jsdom globals away, and `cancelAnimationFrame is not defined` escapes as an
 * uncaught error that fails the whole run (seen on a loaded machine). Each file ends only once
 * such timers have fired.
 */
const PREACT_FRAME_TIMEOUT_MS = 35;

afterAll(() => new Promise<void>((resolve) => setTimeout(resolve, 2 * PREACT_FRAME_TIMEOUT_MS)));
