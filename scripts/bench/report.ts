/** Renders benchmark results: an aligned table for people and JSON for tools. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname } from 'node:path';
import type { Measurement } from './sampler.js';

export interface WorkloadResult {
  name: string;
  ours: Measurement;
  reference: Measurement;
  /** ours ops/s ÷ reference ops/s: above 1 means ours is faster. */
  ratio: number;
  /** Set when the two libraries did not produce equivalent results. */
  mismatch?: string;
}

export interface BenchReport {
  results: WorkloadResult[];
  /** With `--collect-before-samples`: the list loads again, a `gc()` before every sample. */
  collectedBeforeSamples?: WorkloadResult[];
  medianRatio: number;
  goal: { medianRatioAtLeast: number; noWorkloadBelow: number; met: boolean };
  environment: Environment;
}

export function formatOps(ops: number): string {
  if (ops >= 100) return Math.round(ops).toLocaleString('en-US');
  return ops.toPrecision(3);
}

function formatSpread(measurement: Measurement): string {
  return `±${(measurement.spread * 100).toFixed(1)}%`;
}

export function formatRatio(ratio: number): string {
  return `${ratio >= 100 ? ratio.toFixed(0) : ratio.toFixed(2)}×`;
}

/** Microseconds per operation, from a measurement. */
export const microseconds = (measurement: Measurement) => 1e6 / measurement.opsPerSecond;

export function formatMicroseconds(value: number): string {
  if (value >= 100) return Math.round(value).toLocaleString('en-US');
  return value.toPrecision(3);
}

/** A measurement's time per operation, for log lines: `12.3 µs`. */
export const timeOf = (measurement: Measurement) =>
  `${formatMicroseconds(microseconds(measurement))} µs`;

/** A count of todos in thousands: `10k`. */
export const sizeLabel = (size: number) => `${size / 1000}k`;

export function formatTable(report: BenchReport): string {
  const header = ['workload', 'ours ops/s', 'spread', 'reference ops/s', 'spread', 'ours/ref', 'n'];
  const rows = report.results.map((result) => [
    result.name,
    formatOps(result.ours.opsPerSecond),
    formatSpread(result.ours),
    formatOps(result.reference.opsPerSecond),
    formatSpread(result.reference),
    `${formatRatio(result.ratio)}${result.ratio < report.goal.noWorkloadBelow ? ' !' : ''}`,
    String(result.ours.samples),
  ]);
  const footer = ['median ratio', '', '', '', '', formatRatio(report.medianRatio), ''];
  const { medianRatioAtLeast, noWorkloadBelow, met } = report.goal;
  return [
    formatColumns(header, rows, { footer }),
    '',
    `goal: median ratio ≥ ${medianRatioAtLeast}× and no workload below ${noWorkloadBelow}× — ${
      met ? 'met' : 'NOT met'
    }`,
    'spread = median absolute deviation of per-operation times; n = samples per library (interleaved)',
    ...(report.collectedBeforeSamples
      ? ['', formatCollectedTable(report.collectedBeforeSamples, report.results)]
      : []),
  ].join('\n');
}

/**
 * The list loads measured with a `gc()` before every sample, beside the same workloads measured
 * without: `time vs no gc` is a library's time per operation with it over its time without.
 */
function formatCollectedTable(
  collected: readonly WorkloadResult[],
  plain: readonly WorkloadResult[],
): string {
  const header = [
    'with gc() before every sample',
    'ours ops/s',
    'time vs no gc',
    'reference ops/s',
    'time vs no gc',
    'ours/ref',
  ];
  const rows = collected.map((result) => {
    const without = plain.find(({ name }) => name === result.name);
    const timeVersus = (side: 'ours' | 'reference') =>
      without ? formatRatio(without[side].opsPerSecond / result[side].opsPerSecond) : '';
    return [
      result.name,
      formatOps(result.ours.opsPerSecond),
      timeVersus('ours'),
      formatOps(result.reference.opsPerSecond),
      timeVersus('reference'),
      formatRatio(result.ratio),
    ];
  });
  return [
    formatColumns(header, rows),
    "(not part of the goals; time vs no gc = time per operation over the same workload's above)",
  ].join('\n');
}

/**
 * Rows as aligned text, a rule under the header (and above the footer): the first `leftColumns`
 * columns are aligned left (names), the others right (figures).
 */
export function formatColumns(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  { leftColumns = 1, footer }: { leftColumns?: number; footer?: readonly string[] } = {},
): string {
  const all = [header, ...rows, ...(footer ? [footer] : [])];
  const widths = header.map((_, index) => Math.max(...all.map((row) => (row[index] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, index) =>
        index < leftColumns
          ? cell.padEnd(widths[index] as number)
          : cell.padStart(widths[index] as number),
      )
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '─'.repeat(width)).join('  ');
  return [line(header), rule, ...rows.map(line), ...(footer ? [rule, line(footer)] : [])].join(
    '\n',
  );
}

/** Where and when a report was measured; `started` is the run's Date.now() at its start. */
export function environment(started: number) {
  return {
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    nodeEnv: process.env.NODE_ENV ?? '',
    date: new Date().toISOString(),
    seconds: Math.round((Date.now() - started) / 1000),
  };
}
export type Environment = ReturnType<typeof environment>;

export function writeJson(path: string, report: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
}
