/**
 * What recording the app's call sites costs (`npm run bench -- --call-sites`): while a panel is
 * connected, each action a development store runs captures a stack (CallCauses.tracing). One
 * write (`controller.setResponse` of a todo), on a development store with tracing off and on,
 * samples interleaved; the cost is the median of the per-round ratios and the difference of the
 * medians per write. Without a panel nothing is captured, and a production build has no
 * CallCauses at all.
 */
import { createStore, Endpoint, Entity } from '../../library/src/index.js';
import { measureInterleaved, type SamplerOptions, type Side } from './sampler.js';
import { median, pairedSlowdown } from './stats.js';

class Todo extends Entity {
  id = '';
  title = '';
  pk() {
    return this.id;
  }
  static override key = 'Todo';
}

const getTodo = new Endpoint((_params: { id: string }) => Promise.resolve({}), {
  schema: Todo,
  name: 'getTodo',
});

/** A side writing `batch` todos, on a development store recording call sites or not. */
function writes(tracing: boolean): Side {
  return {
    prepare(batch) {
      const { controller } = createStore();
      if (controller.causes === undefined) throw new Error('a development store notes causes');
      controller.causes.tracing = tracing;
      const todos = Array.from({ length: batch }, (_, index) => ({
        id: String(index % 100),
        title: `todo ${index}`,
      }));
      return () => {
        for (const todo of todos) controller.setResponse(getTodo, { id: todo.id }, todo);
      };
    },
  };
}

/** Measures both sides in development mode (what a store with a panel runs in). */
export function measureCallSites(options: SamplerOptions): string {
  const mode = process.env.NODE_ENV;
  process.env.NODE_ENV = 'development';
  try {
    const [off, on] = measureInterleaved([writes(false), writes(true)], options);
    if (off === undefined || on === undefined) throw new Error('both sides are measured');
    const perWrite = (times: readonly number[]) => median(times) * 1000;
    const added = perWrite(on.times) - perWrite(off.times);
    return [
      'recording call sites (a panel connected), one setResponse in a development store:',
      `  without: ${perWrite(off.times).toFixed(1)} µs per write`,
      `  with:    ${perWrite(on.times).toFixed(1)} µs per write (${pairedSlowdown(on.times, off.times).toFixed(2)}×, +${added.toFixed(1)} µs)`,
    ].join('\n');
  } finally {
    process.env.NODE_ENV = mode;
  }
}
