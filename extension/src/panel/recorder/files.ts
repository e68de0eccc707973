/** The last download's Blob URL, released when the next one starts (or with the panel). */
let lastUrl: string | undefined;

/** Saves text as a file through the browser's download (a Blob behind an `<a download>`). */
export function downloadText(filename: string, text: string, type = 'application/json'): void {
  // Not revoked right after the click: Firefox may start the download later and find it gone.
  if (lastUrl !== undefined) URL.revokeObjectURL(lastUrl);
  const url = URL.createObjectURL(new Blob([text], { type }));
  lastUrl = url;
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.hidden = true;
  // Firefox follows only a link that is in the document.
  document.body.append(link);
  link.click();
  link.remove();
}

/** A session file is JSON text: anything far larger is a mistake, not worth reading. */
const MAX_FILE_SIZE = 64 * 1024 * 1024;

/** Reads a picked or dropped file as text (FileReader: `Blob.text()` is missing in some DOMs). */
export function readFileText(file: Blob): Promise<string> {
  if (file.size > MAX_FILE_SIZE)
    return Promise.reject(
      new Error(`the file is too large (${Math.ceil(file.size / 1024 / 1024)} MB; at most 64 MB)`),
    );
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.readAsText(file);
  });
}
