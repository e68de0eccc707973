import type { TraceFrame } from '../protocol/effects.js';

/** `    at fn (url:line:col)`, `    at url:line:col` (V8), `fn@url:line:col` (SpiderMonkey). */
const V8_FRAME = /^\s*at (?:(.*?) \()?(.+?):(\d+):(\d+)\)?$/;
const GECKO_FRAME = /^(.*?)@(.+?):(\d+):(\d+)$/;

/**
 * The frames of a stack the engine wrote (see CallCauses), innermost first; lines that name no
 * location (native code, the message line) are left out.
 */
export function traceFrames(stack: string): TraceFrame[] {
  const frames: TraceFrame[] = [];
  for (const line of stack.split('\n')) {
    const match = V8_FRAME.exec(line) ?? GECKO_FRAME.exec(line);
    if (!match) continue;
    const [, name, url, row, column] = match as unknown as [
      string,
      string | undefined,
      string,
      string,
      string,
    ];
    const frame: TraceFrame = { url, line: Number(row), column: Number(column) };
    if (name) frame.function = name;
    frames.push(frame);
  }
  return frames;
}
