/**
 * `npm run bench:docs`: renders the last run's `dist/bench/*.json` into the generated tables of
 * docs/benchmarks.md and the summary table of README.md, each between its markers
 * (`<!-- bench:NAME -->` … `<!-- /bench:NAME -->`), so that no figure in the docs is written by
 * hand. A suite whose JSON is missing (not run on this machine) leaves its table as it was.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { DevtoolsReport } from './devtools.js';
import type { ReactReport } from './react/report.js';
import {
  type BenchReport,
  type Environment,
  formatMicroseconds,
  formatOps,
  formatRatio,
  microseconds,
  sizeLabel,
} from './report.js';
import type { SizeResult } from './scale/main.js';
import type { MixedResult } from './scale/mixed.js';
import { median } from './stats.js';
import type { StoresReport } from './stores/suite.js';
import type { WritesReport } from './writes.js';

interface ScaleReport {
  results: SizeResult[];
  mixed?: MixedResult;
  environment: { chromium: string; quick: boolean; date: string; seconds: number };
}

/** What `npm run size` measured (scripts/size/measure.mjs). */
interface SizeReport {
  app: string;
  restlens: { minified: number; gzipped: number };
  dataClient: { minified: number; gzipped: number };
  goalGzipped: number;
  ceilingGzipped: number;
  date: string;
}

interface Reports {
  core?: BenchReport;
  writes?: WritesReport;
  stores?: StoresReport;
  devtools?: DevtoolsReport;
  scale?: ScaleReport;
  react?: ReactReport;
  size?: SizeReport;
}

const REPORT_DIR = 'dist/bench';
const BENCHMARKS_DOC = 'docs/benchmarks.md';
const README = 'README.md';

function readReports(): Reports {
  const read = <T>(name: string): T | undefined => {
    const path = `${REPORT_DIR}/${name}.json`;
    return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as T) : undefined;
  };
  return {
    core: read('core'),
    writes: read('writes'),
    stores: read('stores'),
    devtools: read('devtools'),
    scale: read('scale'),
    react: read('react'),
    size: read('size'),
  };
}

// ─── markdown ────────────────────────────────────────────────────────────────────────────────────

/** A markdown table; the first `leftColumns` columns are left-aligned, the others right. */
function table(header: string[], rows: string[][], leftColumns = 1): string {
  const align = header.map((_, index) => (index < leftColumns ? '---' : '--:'));
  return [header, align, ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

const verdict = (met: boolean) => (met ? '**met**' : '**not met**');
const percent = (overhead: number) =>
  `${overhead >= 0 ? '+' : '−'}${Math.abs(overhead * 100).toFixed(1)}%`;
const milliseconds = (ms: number) => `${Math.round(ms).toLocaleString('en-US')} ms`;
const count = (value: number) => value.toLocaleString('en-US');

function runLine(environment: Environment, command: string): string {
  return `_\`${command}\` on ${environment.date.slice(0, 10)}: Node ${environment.node}, ${environment.cores} × ${environment.cpu}, \`NODE_ENV=${environment.nodeEnv}\`, ${environment.seconds} s._`;
}

// ─── the tables ──────────────────────────────────────────────────────────────────────────────────

/** The median is given to three places: a median just below the goal must not round up to it. */
function coreTable(report: BenchReport): string {
  const rows = report.results.map((result) => [
    result.name,
    formatOps(result.ours.opsPerSecond),
    formatOps(result.reference.opsPerSecond),
    result.ratio < report.goal.noWorkloadBelow
      ? `${formatRatio(result.ratio)} (below ${report.goal.noWorkloadBelow}×)`
      : formatRatio(result.ratio),
  ]);
  rows.push(['**median**', '', '', `**${formatRatio(report.medianRatio)}**`]);
  const lowest = Math.min(...report.results.map((result) => result.ratio));
  return [
    runLine(report.environment, 'npm run bench'),
    '',
    table(['workload', 'RestLens ops/s', 'data-client ops/s', 'RestLens ÷ data-client'], rows),
    '',
    `Goals: median ≥ ${report.goal.medianRatioAtLeast}× (${report.medianRatio.toFixed(3)}×: ${verdict(report.medianRatio >= report.goal.medianRatioAtLeast)}); no workload below ${report.goal.noWorkloadBelow}× (lowest ${formatRatio(lowest)}: ${verdict(lowest >= report.goal.noWorkloadBelow)}).`,
  ].join('\n');
}

function writesTable(report: WritesReport): string {
  const shapes = [...new Set(report.results.map((result) => result.shape))];
  const writes = [...new Set(report.results.map((result) => result.write))];
  const sizes = [...new Set(report.results.map((result) => result.size))];
  const rows = shapes.flatMap((shape) =>
    writes.map((write) => {
      const of = (size: number) =>
        report.results.find((r) => r.shape === shape && r.write === write && r.size === size);
      const growth = report.growth.find((g) => g.shape === shape && g.write === write);
      const largest = of(sizes.at(-1) as number);
      return [
        shape,
        write,
        ...sizes.map((size) => {
          const result = of(size);
          return result ? formatMicroseconds(microseconds(result.ours)) : '—';
        }),
        growth ? formatRatio(growth.ours) : '—',
        ...sizes.map((size) => {
          const result = of(size);
          return result ? formatMicroseconds(microseconds(result.reference)) : '—';
        }),
        growth ? formatRatio(growth.reference) : '—',
        largest ? formatRatio(largest.faster) : '—',
      ];
    }),
  );
  const sizeHeaders = (who: string) => sizes.map((size) => `${who} ${sizeLabel(size)} µs`);
  return [
    runLine(report.environment, 'npm run bench'),
    '',
    table(
      [
        'pk shape',
        'write',
        ...sizeHeaders('RestLens'),
        'growth',
        ...sizeHeaders('data-client'),
        'growth',
        `faster at ${sizeLabel(sizes.at(-1) as number)}`,
      ],
      rows,
      2,
    ),
    '',
    `Goals: RestLens's cost grows ≤ ${report.goal.growthAtMost}× from ${sizeLabel(sizes[0] as number)} to ${sizeLabel(sizes.at(-1) as number)} (${verdict(report.goal.growthMet)}); at ${sizeLabel(sizes.at(-1) as number)} it is ≥ ${report.goal.fasterAtLargestAtLeast}× faster than data-client (${verdict(report.goal.fasterMet)}).`,
  ].join('\n');
}

function storesTable(report: StoresReport): string {
  const rows = report.results.map((result) => [
    sizeLabel(result.size),
    result.write,
    count(result.lists),
    formatMicroseconds(microseconds(result.plain)),
    formatMicroseconds(microseconds(result.bridge)),
    result.bridgeRatio > report.goal.bridgeAtMost
      ? `${formatRatio(result.bridgeRatio)} (over)`
      : formatRatio(result.bridgeRatio),
    formatRatio(result.keptRatio),
    result.reference ? formatMicroseconds(microseconds(result.reference.reference)) : '—',
    result.reference ? formatRatio(result.reference.faster) : '—',
  ]);
  const growthRows = report.growth.map((growth) => [
    sizeLabel(growth.size),
    growth.write,
    formatRatio(growth.plain),
    formatRatio(growth.bridge),
  ]);
  return [
    runLine(report.environment, 'npm run bench'),
    '',
    table(
      [
        'todos',
        'write',
        'lists',
        'plain µs',
        'bridge µs',
        'bridge ÷ plain',
        'kept only ÷ plain',
        'data-client µs',
        'RestLens faster',
      ],
      rows,
      2,
    ),
    '',
    table(['todos', 'write', 'growth, plain', 'growth, bridge'], growthRows, 2),
    '',
    `Goals: on the plain store a ${report.goal.growthWrites.join(' and a ')} cost ≤ ${report.goal.growthAtMost}× as much with the most lists as with the fewest (${verdict(report.goal.growthMet)}); the bridge with no panel costs ≤ ${report.goal.bridgeAtMost}× the plain store on every write (${verdict(report.goal.bridgeMet)}).`,
  ].join('\n');
}

function devtoolsTable(report: DevtoolsReport): string {
  const rows = report.results.map((result) => [
    result.name,
    percent(result.bridgeOverhead),
    `${percent(result.bridgeInterval[0])} … ${percent(result.bridgeInterval[1])}`,
    percent(result.controlOverhead),
    percent(result.keepingOverhead),
    percent(result.panelOverhead),
    percent(result.relayOverhead),
  ]);
  rows.push([
    '**median**',
    percent(report.medianBridgeOverhead),
    `${percent(report.medianBridgeInterval[0])} … ${percent(report.medianBridgeInterval[1])}`,
    percent(report.medianControlOverhead),
    percent(report.medianKeepingOverhead),
    percent(report.medianPanelOverhead),
    percent(report.medianRelayOverhead),
  ]);
  const worst = Math.max(...report.results.map((result) => result.bridgeOverhead));
  return [
    table(
      [
        'workload',
        'bridge, no panel',
        '95% interval',
        'A/A control',
        'kept only',
        'with a panel',
        'relay only',
      ],
      rows,
    ),
    '',
    `Events per second to a panel: ${count(Math.round(report.eventsPerSecond))} (no \`seq\` gap: ${report.gaps === 0 ? 'none missing' : `${report.gaps} missing`}). Heap the bridge keeps per change with no panel, states included: ${count(Math.round(report.bridgeBytesPerPush))} bytes in a store of 10k todos, ${count(Math.round(report.bridgeBytesPerPush100k))} in one of 100k.`,
    '',
    `Goals: the bridge with no panel costs ≤ ${percent(report.goal.bridgeOverheadAtMost)} on every workload (most: ${percent(worst)}: ${verdict(worst <= report.goal.bridgeOverheadAtMost)}); ≥ ${count(report.goal.eventsPerSecondAtLeast)} events/s (${verdict(report.eventsPerSecond >= report.goal.eventsPerSecondAtLeast)}); ≤ ${count(report.goal.bytesPerChangeAtMost)} bytes per change at 100k (${verdict(report.bridgeBytesPerPush100k <= report.goal.bytesPerChangeAtMost)}).`,
  ].join('\n');
}

function scaleTable(report: ScaleReport): string {
  const parts = [
    `_\`npm run bench -- --scale\` on ${report.environment.date.slice(0, 10)}: ${report.environment.chromium}, ${report.environment.seconds} s._`,
  ];
  if (report.results.length > 0) {
    const column = (label: string, value: (result: SizeResult) => string) => [
      label,
      ...report.results.map(value),
    ];
    parts.push(
      '',
      table(
        ['', ...report.results.map((result) => `${sizeLabel(result.size)} todos`)],
        [
          column('open the panel → collections listed', (r) => milliseconds(r.collectionsListedMs)),
          column('the whole answer to `connect` posted', (r) => milliseconds(r.answeredMs)),
          column('5,000 writes meant to take 1 s, no panel (median)', (r) =>
            milliseconds(median(r.burstNoPanelMs)),
          ),
          column('the same burst with the panel open: page CPU over no panel', (r) =>
            percent(r.panelBurstCost),
          ),
          column('5,000 writes to a small table, big one loaded', (r) =>
            milliseconds(r.smallWritesMs),
          ),
          column('panel heap at the end', (r) => `${Math.round(r.panelHeapBytes / 1e6)} MB`),
        ],
      ),
    );
  }
  const { mixed } = report;
  if (mixed) {
    const { median: m, goals } = mixed;
    parts.push(
      '',
      `${count(mixed.writes)} mixed writes (${count(mixed.mix.pushes)} pushes, ${count(mixed.mix.updates)} partialUpdates, ${count(mixed.mix.deletes)} deletes) at ${sizeLabel(mixed.todos)} todos in ${count(mixed.lists)} lists, ${mixed.schedule}, median of ${mixed.rounds.length} rounds:`,
      '',
      table(
        ['', 'no panel', 'panel open', 'goal'],
        [
          [
            'the writes, wall time',
            milliseconds(m.noPanelWallMs),
            milliseconds(m.panelWallMs),
            `≤ ${milliseconds(goals.panelWallMs.atMost)} with the panel: ${verdict(goals.panelWallMs.met)}`,
          ],
          ['page CPU time', milliseconds(m.noPanelCpuMs), milliseconds(m.panelCpuMs), ''],
          [
            'the last write shown by the panel, after it',
            '—',
            milliseconds(m.shownMs),
            `≤ ${milliseconds(goals.shownMs.atMost)}: ${verdict(goals.shownMs.met)}`,
          ],
        ],
      ),
    );
  }
  return parts.join('\n');
}

function reactTable(report: ReactReport): string {
  const { date, seconds } = report.environment;
  const rows = report.scenarios.map((scenario) => [
    scenario.name,
    scenario.ours.ms.toPrecision(3),
    scenario.reference.ms.toPrecision(3),
    formatRatio(scenario.speed),
    scenario.plain.ms.toPrecision(3),
    formatRatio(scenario.reachable),
    rangeText(scenario.ours.renders),
    rangeText(scenario.reference.renders),
    scenario.readersChanged === undefined ? '—' : count(scenario.readersChanged),
  ]);
  const { ours, reference } = report.memory;
  rows.push([
    `heap after ${report.memory.cycles} mount/unmount cycles`,
    `${(ours.after / 1e6).toFixed(2)} MB`,
    `${(reference.after / 1e6).toFixed(2)} MB`,
    formatRatio(reference.after / ours.after),
    '',
    '',
    '',
    '',
    '',
  ]);
  return [
    `_\`npm run bench -- --react\` on ${String(date).slice(0, 10)}, ${seconds} s._`,
    '',
    table(
      [
        'scenario (1,000-item list)',
        'RestLens ms',
        'data-client ms',
        'RestLens faster',
        'plain React ms',
        'most reachable',
        'renders: RestLens',
        'renders: data-client',
        'readers whose reading changed',
      ],
      rows,
    ),
    '',
    ...report.goals.map((goal) => `- ${goal.name}: ${goal.measured} (${verdict(goal.met)})`),
  ].join('\n');
}

const rangeText = ([least, most]: [number, number]) =>
  least === most ? count(least) : `${count(least)}–${count(most)}`;

const kilobytes = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

function sizeTable(report: SizeReport): string {
  const row = (name: string, { minified, gzipped }: SizeReport['restlens']) => [
    name,
    kilobytes(minified),
    kilobytes(gzipped),
  ];
  return [
    `_\`npm run size\` on ${report.date.slice(0, 10)}: the app of \`${report.app}\`, esbuild \`--minify\`, \`NODE_ENV=production\`, React external._`,
    '',
    table(
      ['', 'minified', 'min+gzip'],
      [row('RestLens', report.restlens), row('@data-client/rest 0.9.9', report.dataClient)],
    ),
    '',
    `Goal: ≤ ${kilobytes(report.goalGzipped)} min+gzip (${verdict(report.restlens.gzipped <= report.goalGzipped)}). A unit test fails past ${kilobytes(report.ceilingGzipped)}.`,
  ].join('\n');
}

/** The lowest and highest of `values`, as ratios: `1.80× – 6.31×`. */
function ratioRange(values: readonly number[]): string {
  return `${formatRatio(Math.min(...values))} – ${formatRatio(Math.max(...values))}`;
}

/** The README's one small table: the figures that matter, each from its suite's last run. */
function summaryTable({ core, writes, stores, react, size }: Reports): string | undefined {
  const rows: string[][] = [];
  const listLoads = core?.results.filter((result) => result.name.startsWith('list load')) ?? [];
  if (listLoads.length > 0)
    rows.push([
      'load a list into the store (100 to 100k todos, empty store or refetch)',
      `${ratioRange(listLoads.map((result) => result.ratio))} faster`,
    ]);
  if (writes) {
    const largest = Math.max(...writes.results.map((result) => result.size));
    const atLargest = writes.results.filter((result) => result.size === largest);
    rows.push([
      `one write into a store of ${sizeLabel(largest)} todos`,
      `${ratioRange(atLargest.map((result) => result.faster))} faster`,
    ]);
  }
  if (stores)
    rows.push([
      'one write with the devtools bridge connected (no panel), over without it',
      ratioRange(stores.results.map((result) => result.bridgeRatio)),
    ]);
  const updateOne = react?.scenarios.find((scenario) => scenario.id === 'update-todo');
  if (updateOne)
    rows.push([
      'React: update one of 1,000 mounted todos',
      `${formatRatio(updateOne.speed)} faster; ${rangeText(updateOne.ours.renders)} renders against ${rangeText(updateOne.reference.renders)}`,
    ]);
  if (size)
    rows.push([
      'production bundle of a typical app, min+gzip',
      `${kilobytes(size.restlens.gzipped)} (data-client: ${kilobytes(size.dataClient.gzipped)})`,
    ]);
  return rows.length > 0
    ? table(['what the app does', 'RestLens against data-client 0.9.9'], rows)
    : undefined;
}

// ─── writing the docs ────────────────────────────────────────────────────────────────────────────

/** `text` with what stands between the markers of `name` replaced by `content`. */
function replaceBetweenMarkers(text: string, name: string, content: string, path: string): string {
  const start = `<!-- bench:${name} -->`;
  const end = `<!-- /bench:${name} -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from === -1 || to < from) throw new Error(`${path} has no ${start} … ${end} markers`);
  return `${text.slice(0, from + start.length)}\n${content}\n${text.slice(to)}`;
}

function render(path: string, tables: Record<string, string | undefined>): void {
  let text = readFileSync(path, 'utf8');
  for (const [name, content] of Object.entries(tables))
    if (content !== undefined) text = replaceBetweenMarkers(text, name, content, path);
  writeFileSync(path, text);
}

export function renderBenchmarkDocs(log: (message: string) => void): void {
  const reports = readReports();
  const { core, writes, stores, devtools, scale, react, size } = reports;
  render(BENCHMARKS_DOC, {
    core: core && coreTable(core),
    writes: writes && writesTable(writes),
    stores: stores && storesTable(stores),
    devtools: devtools && devtoolsTable(devtools),
    scale: scale && scaleTable(scale),
    react: react && reactTable(react),
    size: size && sizeTable(size),
  });
  render(README, { summary: summaryTable(reports) });
  const missing = Object.entries(reports)
    .filter(([, report]) => report === undefined)
    .map(([name]) => name);
  log(
    `rendered ${BENCHMARKS_DOC} and ${README}${missing.length > 0 ? ` (no ${missing.join(', ')} report: those tables left as they were)` : ''}`,
  );
}
