/**
 * `promise`, or its rejection with the signal's reason as soon as `signal` aborts, as fetch
 * rejects; `onAbort` runs then. The promise itself goes on: whoever else awaits it is not failed.
 */
export function untilAborted<T>(
  promise: Promise<T>,
  signal: AbortSignal,
  onAbort?: () => void,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const abort = () => {
      reject(signal.reason);
      onAbort?.();
    };
    signal.addEventListener('abort', abort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(error);
      },
    );
  });
}
