import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type AsyncSide,
  measureInterleaved,
  measureInterleavedAsync,
  type SamplerOptions,
  type Side,
} from './sampler.js';

/** One warm-up round, then exactly `rounds` rounds: the budget is spent at once. */
const rounds = (count: number): SamplerOptions => ({
  warmupMs: 0,
  budgetMs: 0,
  minSamples: count,
  maxSamples: count,
  targetSampleMs: 1,
});

/** A side that notes each step in `log` as `<name> prepare <batch>`, `<name> run`. */
function loggingSide(name: string, log: string[]): Side {
  return {
    prepare(batch) {
      log.push(`${name} prepare ${batch}`);
      return () => {
        log.push(`${name} run`);
      };
    },
  };
}

/** The log without batch sizes, which depend on the times measured. */
const steps = (entries: readonly string[]) => entries.map((entry) => entry.replace(/ \d+$/, ''));

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('measureInterleavedAsync', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('times the whole batch of an asynchronous side, each operation awaited', async () => {
    let settled = 0;
    const waiting: AsyncSide = {
      prepare: (batch) => async () => {
        for (let i = 0; i < batch; i++) await sleep(4);
        settled += batch;
      },
    };
    const [measurement] = await measureInterleavedAsync([waiting], {
      ...rounds(3),
      targetSampleMs: 20,
    });
    // Each operation waits 4 ms at least: the time is per operation, awaited in full.
    expect(1000 / (measurement?.opsPerSecond ?? 0)).toBeGreaterThanOrEqual(4);
    expect(measurement?.batch).toBeGreaterThan(1);
    expect(settled).toBeGreaterThan(3);
  });

  it('takes turns as the synchronous sampler does, with sides of both kinds', async () => {
    const synchronousLog: string[] = [];
    measureInterleaved(
      [loggingSide('a', synchronousLog), loggingSide('b', synchronousLog)],
      rounds(3),
    );
    const log: string[] = [];
    const asynchronous: AsyncSide = {
      prepare(batch) {
        log.push(`a prepare ${batch}`);
        return async () => {
          log.push('a run');
        };
      },
    };
    await measureInterleavedAsync([asynchronous, loggingSide('b', log)], rounds(3));
    expect(steps(log)).toEqual(steps(synchronousLog));
    expect(steps(log).filter((step) => step.endsWith('run'))).toEqual(
      ['a', 'b', 'a', 'b', 'b', 'a', 'a', 'b'].map((side) => `${side} run`),
    );
  });

  it('skips the warm-up when asked, starting with single operations', async () => {
    const log: string[] = [];
    await measureInterleavedAsync([loggingSide('a', log), loggingSide('b', log)], {
      ...rounds(2),
      warmupRounds: 0,
    });
    expect(steps(log)).toEqual([
      ...['a prepare', 'a run', 'b prepare', 'b run'],
      ...['b prepare', 'b run', 'a prepare', 'a run'],
    ]);
    expect(log.slice(0, 3)).toEqual(['a prepare 1', 'a run', 'b prepare 1']);
  });

  it('collects garbage between preparing and timing only when asked', async () => {
    const log: string[] = [];
    vi.stubGlobal('gc', () => log.push('gc'));
    await measureInterleavedAsync([loggingSide('a', log)], rounds(1));
    expect(log).not.toContain('gc');
    await measureInterleavedAsync([loggingSide('a', log)], {
      ...rounds(1),
      collectBeforeSample: true,
    });
    // The warm-up's run, then the sample's.
    expect(steps(log.slice(-6))).toEqual(['a prepare', 'gc', 'a run', 'a prepare', 'gc', 'a run']);
  });
});

describe('measureInterleaved', () => {
  it('refuses an asynchronous side, whose time it could not measure', () => {
    const asynchronous: Side = { prepare: () => async () => {} };
    expect(() => measureInterleaved([asynchronous], rounds(1))).toThrow(/measureInterleavedAsync/);
  });
});
