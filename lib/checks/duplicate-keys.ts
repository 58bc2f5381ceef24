import type { Sample, SampleValue } from '../report/report.js';
import { MAX_SAMPLES } from '../report/report.js';

/** Where a key was first seen: file index and row, packed into one number to keep state small. */
const ROWS_PER_FILE = 2 ** 32;

/**
 * Finds keys that occur more than once across every file of a partition. Counts distinct
 * duplicated keys; samples show the first occurrence and the repeats.
 */
export class DuplicateKeys {
  private readonly firstSeen = new Map<unknown, number>();
  private readonly repeated = new Set<unknown>();
  readonly samples: Sample[] = [];

  constructor(private readonly files: readonly string[]) {}

  /** `display` is computed only when a sample is taken: most keys never need one. */
  observe(key: unknown, fileIndex: number, row: number, display: () => SampleValue): void {
    const location = fileIndex * ROWS_PER_FILE + row;
    const first = this.firstSeen.get(key);
    if (first === undefined) {
      this.firstSeen.set(key, location);
      return;
    }
    const isNew = !this.repeated.has(key);
    if (isNew) this.repeated.add(key);
    if (this.samples.length >= MAX_SAMPLES) return;
    const value = display();
    if (isNew) this.samples.push(this.sample(first, value));
    if (this.samples.length < MAX_SAMPLES) this.samples.push(this.sample(location, value));
  }

  get duplicateCount(): number {
    return this.repeated.size;
  }

  private sample(location: number, value: SampleValue): Sample {
    const fileIndex = Math.floor(location / ROWS_PER_FILE);
    return { file: this.files[fileIndex] ?? '', row: location % ROWS_PER_FILE, value };
  }
}
