/** The React benchmark's results: the table and goals for people, JSON for tools. */
import { median, relativeMargin } from '../stats.js';
import type { HeapResult } from './memory.js';
import type { Sample } from './protocol.js';
import type { Scenario, ScenarioId } from './scenarios.js';

export interface SideResult {
  /** Median time from the action to its DOM change. */
  ms: number;
  /** Relative half-width of the median's 95% confidence interval. */
  margin: number;
  /** Renders per sample: the fewest and the most seen. */
  renders: [number, number];
  /** Requests per sample: the fewest and the most seen. */
  requests: [number, number];
  samples: Sample[];
}

export interface ScenarioResult {
  id: ScenarioId;
  name: string;
  readersChanged?: number;
  ours: SideResult;
  reference: SideResult;
  /** The same app with no library: the floor under both (what any library's time includes). */
  plain: SideResult;
  /** data-client's time ÷ ours: above 1, ours is faster (as ops/s ours ÷ reference). */
  speed: number;
  /**
   * data-client's time ÷ plain React's: how much faster than data-client a library that cost
   * nothing at all would be, the most any library can reach in this scenario.
   */
  reachable: number;
  /** Set when the pages sent different numbers of requests: the times compare unlike work. */
  requestsDiffer?: string;
}

export interface Goal {
  name: string;
  measured: string;
  met: boolean;
}

export interface ReactReport {
  scenarios: ScenarioResult[];
  /** Set when the two pages showed different text after the same actions. */
  mismatch?: string;
  memory: { cycles: number; ours: HeapResult; reference: HeapResult };
  goals: Goal[];
  environment: Record<string, string | number | boolean>;
}

const range = (values: readonly number[]): [number, number] => [
  Math.min(...values),
  Math.max(...values),
];

function side(samples: Sample[]): SideResult {
  const times = samples.map((sample) => sample.ms);
  return {
    ms: median(times),
    margin: relativeMargin(times),
    renders: range(samples.map((sample) => sample.renders)),
    requests: range(samples.map((sample) => sample.requests)),
    samples,
  };
}

export function scenarioResult(
  scenario: Scenario,
  ours: Sample[],
  reference: Sample[],
  plain: Sample[],
): ScenarioResult {
  const [oursSide, referenceSide, plainSide] = [side(ours), side(reference), side(plain)];
  const requests = [oursSide, referenceSide, plainSide].map((result) =>
    formatRange(result.requests),
  );
  return {
    ...(new Set(requests).size === 1
      ? {}
      : {
          requestsDiffer: `requests per action: restlens ${requests[0]}, data-client ${requests[1]}, plain React ${requests[2]}`,
        }),
    id: scenario.id,
    name: scenario.name,
    ...(scenario.readersChanged === undefined ? {} : { readersChanged: scenario.readersChanged }),
    ours: oursSide,
    reference: referenceSide,
    plain: plainSide,
    speed: referenceSide.ms / oursSide.ms,
    reachable: referenceSide.ms / plainSide.ms,
  };
}

const formatSpeed = (ratio: number) => `${ratio >= 100 ? ratio.toFixed(0) : ratio.toFixed(2)}×`;

/** The React suite's goals, each with what this run measured. */
export function goalsOf(results: readonly ScenarioResult[]): Goal[] {
  const byId = (id: ScenarioId) => results.find((result) => result.id === id);
  const updates = results.filter((result) => result.readersChanged !== undefined);
  const inexact = updates.filter(
    ({ ours, readersChanged }) =>
      ours.renders[0] !== readersChanged || ours.renders[1] !== readersChanged,
  );
  const goals: Goal[] = [
    {
      name: 'renders per update = components whose reading changed',
      measured:
        inexact.length === 0
          ? `exact in all ${updates.length} updates`
          : inexact
              .map((result) => `${result.name}: ${formatRange(result.ours.renders)}`)
              .join('; '),
      met: updates.length > 0 && inexact.length === 0,
    },
  ];
  const speedGoal = (id: ScenarioId, name: string, atLeast: number) => {
    const result = byId(id);
    if (!result) return;
    const beyondReach =
      result.reachable < atLeast
        ? ` (beyond reach here: plain React, no library, is ${formatSpeed(result.reachable)})`
        : '';
    goals.push({
      name,
      measured: `${formatSpeed(result.speed)}${beyondReach}`,
      met: result.speed >= atLeast,
    });
  };
  speedGoal('unrelated', 'unrelated update ≥ 20× faster than data-client', 20);
  speedGoal('update-todo', 'single-entity update ≥ 5× faster, 1,000 mounted', 5);
  speedGoal('mount', 'mount no slower than data-client (≥ 1×)', 1);
  return goals;
}

function formatRange([fewest, most]: [number, number]): string {
  return fewest === most ? String(fewest) : `${fewest}–${most}`;
}

const formatMs = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toPrecision(3));
const formatMargin = (margin: number) =>
  Number.isFinite(margin) ? `±${(margin * 100).toFixed(1)}%` : '';
const formatMegabytes = (bytes: number) => `${(bytes / 2 ** 20).toFixed(2)} MB`;
const formatGrowth = (bytes: number) =>
  `${bytes >= 0 ? '+' : '−'}${Math.round(Math.abs(bytes) / 1024)} KB`;

/** Columns joined by two spaces, the first left-aligned and the others right-aligned. */
function aligned(rows: readonly (readonly string[])[]): string[] {
  const widths = (rows[0] ?? []).map((_, index) =>
    Math.max(...rows.map((row) => (row[index] ?? '').length)),
  );
  return rows.map((row) =>
    row
      .map((cell, index) =>
        index === 0 ? cell.padEnd(widths[index] as number) : cell.padStart(widths[index] as number),
      )
      .join('  ')
      .trimEnd(),
  );
}

export function formatReport(report: ReactReport): string {
  const header = [
    'scenario (1,000-item list)',
    'restlens ms',
    '95% CI',
    'data-client ms',
    '95% CI',
    'ours/ref',
    'plain React ms',
    '95% CI',
    'ref/plain',
    'renders: restlens',
    'data-client',
    'exact',
  ];
  const rows = report.scenarios.map((result) => [
    result.name,
    formatMs(result.ours.ms),
    formatMargin(result.ours.margin),
    formatMs(result.reference.ms),
    formatMargin(result.reference.margin),
    formatSpeed(result.speed),
    formatMs(result.plain.ms),
    formatMargin(result.plain.margin),
    formatSpeed(result.reachable),
    formatRange(result.ours.renders),
    formatRange(result.reference.renders),
    result.readersChanged === undefined ? '—' : String(result.readersChanged),
  ]);
  const { cycles, ours, reference } = report.memory;
  const memory = aligned([
    [`heap in use, after GC`, 'restlens', 'data-client', 'ours/ref'],
    [
      'after one mount/unmount',
      formatMegabytes(ours.before),
      formatMegabytes(reference.before),
      '',
    ],
    [
      `after ${cycles} mount/unmount cycles`,
      formatMegabytes(ours.after),
      formatMegabytes(reference.after),
      `${(ours.after / reference.after).toFixed(2)}×`,
    ],
    [
      'growth over the cycles',
      formatGrowth(ours.after - ours.before),
      formatGrowth(reference.after - reference.before),
      '',
    ],
  ]);
  const samples = report.scenarios.map((result) => result.ours.samples.length);
  return [
    ...aligned([header, ...rows]),
    ...(report.mismatch ? [`WARNING the libraries showed different text: ${report.mismatch}`] : []),
    ...report.scenarios.flatMap((result) =>
      result.requestsDiffer ? [`WARNING ${result.name}: ${result.requestsDiffer}`] : [],
    ),
    // The floor renders exactly what changed; otherwise its time is no floor.
    ...report.scenarios.flatMap(({ name, plain, readersChanged }) =>
      readersChanged !== undefined && formatRange(plain.renders) !== String(readersChanged)
        ? [
            `WARNING ${name}: plain React rendered ${formatRange(plain.renders)}, not ${readersChanged}`,
          ]
        : [],
    ),
    '',
    ...memory,
    '',
    'goals:',
    ...report.goals.map(
      (goal) => `  ${goal.met ? 'pass' : 'FAIL'}  ${goal.name}: ${goal.measured}`,
    ),
    '',
    'ms = median time from the action to its DOM change; 95% CI = relative half-width of its',
    `confidence interval; ${Math.min(...samples)}–${Math.max(...samples)} samples per page and scenario, interleaved;`,
    'ours/ref = data-client ms ÷ restlens ms (above 1: restlens faster), for heap restlens ÷ data-client;',
    'plain React = the same app with no library (same requests, DOM and renders): the floor under',
    'both libraries; ref/plain = data-client ms ÷ plain React ms, the most any library can be faster;',
    'renders = component renders per action, mounts included; exact = components whose reading changed.',
  ].join('\n');
}
