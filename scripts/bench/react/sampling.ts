/**
 * Convergent sampling of the two libraries side by side: after a warm-up, one sample of each per
 * round (the order alternates, so that neither always runs right after the other), until the 95%
 * confidence margin of every side's median is within the target or the cap is reached.
 */
import { relativeMargin } from '../stats.js';
import type { Sample } from './protocol.js';

export interface SamplingOptions {
  /** Rounds run first and thrown away (the JIT and the caches settle). */
  warmup: number;
  minSamples: number;
  maxSamples: number;
  /** Stop once every side's relative 95% margin is at most this. */
  targetMargin: number;
}

export const FULL: SamplingOptions = {
  warmup: 5,
  minSamples: 10,
  maxSamples: 40,
  targetMargin: 0.03,
};
export const QUICK: SamplingOptions = {
  warmup: 2,
  minSamples: 5,
  maxSamples: 8,
  targetMargin: 0.1,
};

/** `sides[i]()` takes one sample; answers each side's measured samples (warm-up left out). */
export async function sampleConvergent(
  sides: readonly (() => Promise<Sample>)[],
  options: SamplingOptions,
): Promise<Sample[][]> {
  const samples: Sample[][] = sides.map(() => []);
  for (let round = 0; round < options.warmup + options.maxSamples; round++) {
    const order = round % 2 === 0 ? [...sides.keys()] : [...sides.keys()].reverse();
    for (const index of order) {
      const sample = await (sides[index] as () => Promise<Sample>)();
      if (round >= options.warmup) samples[index]?.push(sample);
    }
    const measured = round + 1 - options.warmup;
    const converged = samples.every(
      (side) => relativeMargin(side.map((sample) => sample.ms)) <= options.targetMargin,
    );
    if (measured >= options.minSamples && converged) break;
  }
  return samples;
}
