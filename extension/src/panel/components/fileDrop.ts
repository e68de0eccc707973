import { useState } from 'preact/hooks';

const isFileDrag = (event: DragEvent) => [...(event.dataTransfer?.types ?? [])].includes('Files');

export interface FileDrop {
  /** A file is dragged over the element. */
  dropping: boolean;
  /** The element's drag and drop handlers. */
  handlers: {
    onDragOver(event: DragEvent): void;
    onDragLeave(event: DragEvent & { currentTarget: Node }): void;
    onDrop(event: DragEvent): void;
  };
}

/** Takes a file dropped on an element (the first, when several are). */
export function useFileDrop(onFile: (file: File) => void): FileDrop {
  const [dropping, setDropping] = useState(false);
  return {
    dropping,
    handlers: {
      onDragOver(event) {
        if (!isFileDrag(event)) return;
        event.preventDefault(); // accepts the drop
        setDropping(true);
      },
      onDragLeave(event) {
        const into = event.relatedTarget as Node | null;
        if (!into || !event.currentTarget.contains(into)) setDropping(false);
      },
      onDrop(event) {
        event.preventDefault(); // or the browser opens the file
        setDropping(false);
        const file = event.dataTransfer?.files[0];
        if (file) onFile(file);
      },
    },
  };
}
