/** An RGBA PNG of the lens icon at `size` × `size` pixels. */
export function lensIcon(size: number): Buffer;
