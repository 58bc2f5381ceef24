import { parseArgs } from 'node:util';
import { badDataFiles, pathName, planFile, readPath } from './fuzz-run.js';
import { readLikeTheEngine } from './read-like-engine.js';
import { seedFiles } from './seed-files.js';

/**
 * Replays files of a fuzz run in this process, where a debugger and full stacks reach them:
 * `tsx test/fuzz/replay-fuzz.ts --seed S --files N --index I [--index J ...]` rebuilds each file
 * from the run's seed and its index (with --files as the run had it, for its bad_data tail) and
 * reads it as the worker would. `--quick` replays a run of `npm test`'s quick seeds.
 */
const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '20261130' },
    files: { type: 'string', default: '10000' },
    index: { type: 'string', multiple: true, default: [] },
    quick: { type: 'boolean', default: false },
  },
});

const options = { seed: Number(values.seed), files: Number(values.files) };
const seeds = await seedFiles(values.quick ? 'quick' : 'full');
const extras = badDataFiles();
for (const index of values.index.map(Number)) {
  const file = planFile(index, options, seeds, extras);
  const path = readPath(index);
  const started = performance.now();
  const result = await readLikeTheEngine(file.bytes, path);
  console.log(`#${index} ${file.kind} of ${file.seedFile} (${file.mutation}), read ${pathName(path)}: ${result.outcome} ${result.detail} (${Math.round(performance.now() - started)} ms)`);
}
