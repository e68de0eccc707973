/**
 * `npm run bench [-- <name filter>] [--quick] [--collect-before-samples] [--core | --writes |
 * --stores | --devtools | --devtools-ring | --call-sites | --react | --scale]`: runs the core
 * workloads (list loads included, listLoads.ts) on our library and on the reference side by side
 * in this one process, prints the table and writes dist/bench/core.json; a full run (no filter,
 * no `--core`) then runs the per-write workloads (writes.ts, alone with `--writes`), the
 * app-shaped stores of many lists (stores/, alone with `--stores`) and the devtools suite
 * (devtools.ts, alone with `--devtools`; `--devtools-ring` the bridge's cost by ring length, see
 * measureRings; `--call-sites` what recording call sites costs a write, see callSites.ts).
 * `--react` runs the React suite in Chromium (react/) alone, `--scale` the scale benchmark in
 * Chromium with the built extension (scale/) alone (`--mixed`: only its mixed writes;
 * `--cpu-profile`: and a CPU profile of them). `--docs` renders the last run's JSON into
 * docs/benchmarks.md and the README (docs.ts).
 */
import { fileURLToPath } from 'node:url';
import { measureCallSites } from './callSites.js';
import { ours } from './contenders/ours.js';
import { reference } from './contenders/reference.js';
import type { Contender } from './contenders/types.js';
import {
  formatDevtoolsReport,
  measureRings,
  measureWithoutPanel,
  NO_PANEL_PROCESS_FLAG,
  noPanelProcess,
  RING_PROCESS_FLAG,
  ringProcess,
  runDevtoolsBench,
} from './devtools.js';
import { renderBenchmarkDocs } from './docs.js';
import { LIST_LOAD_PREFIX, listLoadWorkloads } from './listLoads.js';
import { runReactBench } from './react/main.js';
import {
  type BenchReport,
  environment,
  formatRatio,
  formatTable,
  type WorkloadResult,
  writeJson,
} from './report.js';
import { type Measurement, measureInterleavedAsync, type SamplerOptions } from './sampler.js';
import { runScaleBench } from './scale/main.js';
import { median } from './stats.js';
import { formatStoresReport, runStoresBench, STORES_PLANS } from './stores/suite.js';
import { exerciseOtherTypes } from './variety.js';
import { firstDifference } from './verify.js';
import { type Workload, workloads } from './workloads.js';
import { formatWritesReport, runWritesBench, WRITES_SAMPLING } from './writes.js';

const REPORT_PATH = 'dist/bench/core.json';
const WRITES_REPORT_PATH = 'dist/bench/writes.json';
const STORES_REPORT_PATH = 'dist/bench/stores.json';
const DEVTOOLS_REPORT_PATH = 'dist/bench/devtools.json';
/** Over the core and list-load workloads together. */
const GOAL = { medianRatioAtLeast: 3, noWorkloadBelow: 1.5 };

/** The core suite: the kernel and store workloads, then the list loads. */
const coreWorkloads: readonly Workload[] = [...workloads, ...listLoadWorkloads];

/**
 * Measures each selected list load a second time, with `gc()` between preparing a sample and
 * timing it: a store filled after a collection moved its inputs to the old generation can fill
 * slower, and an app's collector runs whenever it must.
 */
const COLLECT_FLAG = '--collect-before-samples';

/** A full run samples each core workload for ~9 s; `--quick` checks that the bench works. */
const FULL: SamplerOptions = {
  warmupMs: 1000,
  budgetMs: 8000,
  minSamples: 3,
  maxSamples: 40,
  targetSampleMs: 100,
};
const QUICK: SamplerOptions = {
  warmupMs: 200,
  budgetMs: 1000,
  minSamples: 3,
  maxSamples: 10,
  targetSampleMs: 20,
};

function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

/**
 * Runs every workload once on each library and compares what they produced, so that no ratio
 * compares different work. It doubles as the global warm-up: afterwards both libraries have met
 * every entity, schema and table shape of the whole run, as a long-running app has, instead of the
 * first workloads running on fresh, the last on well-travelled code paths.
 */
async function verifyAll(selected: readonly Workload[]): Promise<Map<Workload, string>> {
  const mismatches = new Map<Workload, string>();
  for (const workload of selected) {
    const oursPrint = await workload.setup(ours).fingerprint();
    const referencePrint = await workload.setup(reference).fingerprint();
    const mismatch = firstDifference(oursPrint, referencePrint);
    if (mismatch) {
      mismatches.set(workload, mismatch);
      log(`WARNING ${workload.name}: results differ: ours vs reference at ${mismatch}`);
    }
  }
  return mismatches;
}

async function measureWorkload(
  workload: Workload,
  options: SamplerOptions,
): Promise<WorkloadResult> {
  globalThis.gc?.();
  const [oursMeasurement, referenceMeasurement] = (await measureInterleavedAsync(
    [workload.setup(ours), workload.setup(reference)],
    workload.sampling?.(options) ?? options,
  )) as [Measurement, Measurement];
  return {
    name: workload.name,
    ours: oursMeasurement,
    reference: referenceMeasurement,
    ratio: oursMeasurement.opsPerSecond / referenceMeasurement.opsPerSecond,
  };
}

/**
 * Runs one contender's side of the selected workloads for a while and nothing else, for
 * `node --cpu-prof`: the profile then shows that library alone.
 */
async function profile(
  contender: Contender,
  selected: readonly Workload[],
  seconds: number,
): Promise<void> {
  for (const workload of selected) {
    const run = workload.setup(contender);
    const end = Date.now() + seconds * 1000;
    let operations = 0;
    while (Date.now() < end) {
      await run.prepare(1)();
      operations++;
    }
    log(`${contender.name}: ${workload.name}: ${operations} operations in ${seconds} s`);
  }
}

interface Invocation {
  options: SamplerOptions;
  selected: readonly Workload[];
  /** Measure the selected list loads a second time with `gc()` before each sample. */
  collectBeforeSamples: boolean;
  /** Set by `--profile=ours|reference`: run that library alone, for a CPU profile. */
  profiled?: Contender;
}

/** `--quick` or full sampling. */
const samplingOf = (args: readonly string[]): SamplerOptions =>
  args.includes('--quick') ? QUICK : FULL;

function parseArguments(args: readonly string[]): Invocation {
  const options = samplingOf(args);
  const filter = args.find((arg) => !arg.startsWith('--'));
  const selected = coreWorkloads.filter((workload) => !filter || workload.name.includes(filter));
  if (selected.length === 0) throw new Error(`no workload name contains "${filter}"`);
  const collectBeforeSamples = args.includes(COLLECT_FLAG);
  if (collectBeforeSamples && !globalThis.gc) throw new Error(`${COLLECT_FLAG} needs --expose-gc`);
  const profileName = args.find((arg) => arg.startsWith('--profile='))?.slice('--profile='.length);
  if (profileName === undefined) return { options, selected, collectBeforeSamples };
  const profiled = [ours, reference].find((candidate) => candidate.name === profileName);
  if (!profiled) throw new Error(`--profile takes ours or reference, not "${profileName}"`);
  return { options, selected, collectBeforeSamples, profiled };
}

async function runAll({
  selected,
  options,
  collectBeforeSamples,
}: Invocation): Promise<BenchReport> {
  const started = Date.now();
  const [oursOthers, referenceOthers] = [ours, reference].map((c) => exerciseOtherTypes(c));
  const othersDiffer = firstDifference(oursOthers, referenceOthers);
  if (othersDiffer) log(`WARNING other entity types: results differ: ${othersDiffer}`);
  log(`verifying ${selected.length} workloads on both libraries (and warming up)…`);
  const mismatches = await verifyAll(selected);
  const results: WorkloadResult[] = [];
  const collected: WorkloadResult[] = [];
  for (const workload of selected) {
    log(`… ${workload.name}`);
    const result = await measureWorkload(workload, options);
    const mismatch = mismatches.get(workload);
    results.push(mismatch ? { ...result, mismatch } : result);
    log(`  ours/reference ${formatRatio(result.ratio)}`);
    if (collectBeforeSamples && workload.name.startsWith(LIST_LOAD_PREFIX)) {
      // Right after the same workload without, so that both meet the process alike.
      log('  again, gc() before every sample');
      collected.push(await measureWorkload(workload, { ...options, collectBeforeSample: true }));
    }
  }
  const medianRatio = median(results.map((result) => result.ratio));
  return {
    results,
    ...(collectBeforeSamples ? { collectedBeforeSamples: collected } : {}),
    medianRatio,
    goal: {
      ...GOAL,
      met:
        medianRatio >= GOAL.medianRatioAtLeast &&
        results.every((result) => result.ratio >= GOAL.noWorkloadBelow),
    },
    environment: environment(started),
  };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes(NO_PANEL_PROCESS_FLAG)) {
    exerciseOtherTypes(ours);
    const samples = noPanelProcess(storeWorkloads(), ours, samplingOf(args), log);
    process.stdout.write(JSON.stringify(samples));
    return;
  }
  if (args.includes('--docs')) return renderBenchmarkDocs(log);
  if (args.includes('--react')) return runReactBench(args.includes('--quick'), log);
  if (args.includes('--scale'))
    return runScaleBench(
      {
        quick: args.includes('--quick'),
        mixedOnly: args.includes('--mixed'),
        cpuProfile: args.includes('--cpu-profile'),
      },
      log,
    );
  if (args.includes('--writes')) {
    // As in a full run, where the core suite ran first (see variety.ts).
    for (const contender of [ours, reference]) exerciseOtherTypes(contender);
    writesOnly(args.includes('--quick'));
    return;
  }
  if (args.includes('--stores')) {
    // As in a full run, where the core suite ran first (see variety.ts).
    for (const contender of [ours, reference]) exerciseOtherTypes(contender);
    storesOnly(args.includes('--quick'));
    return;
  }
  if (args.includes(RING_PROCESS_FLAG)) {
    exerciseOtherTypes(ours);
    const index = Number(args[args.indexOf(RING_PROCESS_FLAG) + 1]);
    console.log(ringProcess(index, storeWorkloads(), ours, samplingOf(args)));
    return;
  }
  if (args.includes('--devtools-ring')) {
    console.log(`\n${measureRings(fileURLToPath(import.meta.url), log)}`);
    return;
  }
  if (args.includes('--call-sites')) {
    console.log(`\n${measureCallSites(args.includes('--quick') ? QUICK : FULL)}`);
    return;
  }
  if (args.includes('--devtools')) {
    // As in a full run, where the core suite ran first (see variety.ts).
    exerciseOtherTypes(ours);
    return devtoolsOnly(args.includes('--quick'));
  }
  const invocation = parseArguments(args);
  const { options, selected, profiled } = invocation;
  if (profiled) {
    exerciseOtherTypes(profiled);
    await profile(profiled, selected, options === QUICK ? 2 : 10);
    return;
  }
  if (!globalThis.gc)
    log('note: run with --expose-gc (npm run bench does) to collect between workloads');
  const report = await runAll(invocation);
  console.log(`\n${formatTable(report)}`);
  for (const result of report.results.filter((r) => r.mismatch)) {
    console.log(`WARNING ${result.name}: results differ (${result.mismatch})`);
  }
  writeJson(REPORT_PATH, report);
  log(`\nwrote ${REPORT_PATH} (${report.environment.seconds} s)`);
  // The other suites run after the full core suite (a name filter selects core workloads only,
  // `--core` the whole core suite alone).
  if (selected.length === coreWorkloads.length && !args.includes('--core')) {
    writesOnly(options === QUICK);
    storesOnly(options === QUICK);
    await devtoolsOnly(options === QUICK);
  }
}

function writesOnly(quick: boolean): void {
  log('measuring the cost of one write by store size…');
  const report = runWritesBench(WRITES_SAMPLING[quick ? 'quick' : 'full'], log);
  console.log(`\n${formatWritesReport(report)}`);
  writeJson(WRITES_REPORT_PATH, report);
  log(`\nwrote ${WRITES_REPORT_PATH} (${report.environment.seconds} s)`);
}

function storesOnly(quick: boolean): void {
  log('measuring one write into app-shaped stores of many lists…');
  const report = runStoresBench(STORES_PLANS[quick ? 'quick' : 'full'], log);
  console.log(`\n${formatStoresReport(report)}`);
  writeJson(STORES_REPORT_PATH, report);
  log(`\nwrote ${STORES_REPORT_PATH} (${report.environment.seconds} s)`);
}

/**
 * The core workloads that run through a store: the ones the devtools can slow down. Not the list
 * loads: the devtools suite samples synchronous sides, and it measures the bridge's cost on the
 * writes an app makes many of, not on a list's load (one change-set per operation).
 */
const storeWorkloads = () => workloads.filter((workload) => !/normalize/.test(workload.name));

async function devtoolsOnly(quick: boolean): Promise<void> {
  log('measuring the devtools bridge on the store workloads…');
  const noPanel = measureWithoutPanel(
    fileURLToPath(import.meta.url),
    quick ? ['--quick'] : [],
    log,
  );
  const report = await runDevtoolsBench(storeWorkloads(), ours, quick ? QUICK : FULL, noPanel, log);
  console.log(`\n${formatDevtoolsReport(report)}`);
  writeJson(DEVTOOLS_REPORT_PATH, report);
}

await main();
