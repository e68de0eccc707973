/** Renders benchmark results: an aligned table for people and JSON for tools. */
import { mkdirSync, writeFileSync } from 'node:fs';
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
  medianRatio: number;
  goal: { medianRatioAtLeast: number; noWorkloadBelow: number; met: boolean };
  environment: Record<string, string | number>;
}

function formatOps(ops: number): string {
  if (ops >= 100) return Math.round(ops).toLocaleString('en-US');
  return ops.toPrecision(3);
}

function formatSpread(measurement: Measurement): string {
  return `±${(measurement.spread * 100).toFixed(1)}%`;
}

export function formatRatio(ratio: number): string {
  return `${ratio >= 100 ? ratio.toFixed(0) : ratio.toFixed(2)}×`;
}

const columns = [
  { title: 'workload', align: 'left' },
  { title: 'ours ops/s', align: 'right' },
  { title: 'spread', align: 'right' },
  { title: 'reference ops/s', align: 'right' },
  { title: 'spread', align: 'right' },
  { title: 'ours/ref', align: 'right' },
  { title: 'n', align: 'right' },
] as const;

export function formatTable(report: BenchReport): string {
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
  const all = [columns.map((column) => column.title), ...rows, footer];
  const widths = columns.map((_, index) =>
    Math.max(...all.map((row) => (row[index] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, index) =>
        columns[index]?.align === 'left'
          ? cell.padEnd(widths[index] as number)
          : cell.padStart(widths[index] as number),
      )
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '─'.repeat(width)).join('  ');
  const { medianRatioAtLeast, noWorkloadBelow, met } = report.goal;
  return [
    line(all[0] as string[]),
    rule,
    ...rows.map(line),
    rule,
    line(footer),
    '',
    `goal: median ratio ≥ ${medianRatioAtLeast}× and no workload below ${noWorkloadBelow}× — ${
      met ? 'met' : 'NOT met'
    }`,
    'spread = median absolute deviation of per-operation times; n = samples per library (interleaved)',
  ].join('\n');
}

export function writeJson(path: string, report: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
}
