import { describe, expect, it } from 'vitest';
import { BOMBS } from './parquet-bombs.js';
import { PEAK_RSS_MB, runBomb } from './bomb-run.js';

/** The review's wide bombs and lying pages; the whole corpus runs in `npm run test:fuzz`. */
const QUICK = ['wide zstd zeros, 8 columns', 'wide zstd zeros, 16 columns', 'gzip page declaring 64 KiB, inflating to 256 MiB', 'zstd page declaring 64 KiB, inflating to 256 MiB', 'footer num_rows 0 beside a 1,000-row group', 'zstd pages of 1 MiB, 300 columns (a wide ordinary file)'];

describe.concurrent('Parquet memory bombs, each validated in a process of its own', () => {
  for (const bomb of BOMBS.filter((b) => QUICK.includes(b.name))) {
    const verb = bomb.expect === 'read' ? 'reads' : 'refuses';
    it(`${verb} ${bomb.name}${bomb.expect === 'read' ? '' : ' as unreadable'}, peaking under ${bomb.peakRssMb ?? PEAK_RSS_MB} MB RSS`, async () => {
      const outcome = await runBomb(bomb);
      expect(outcome.failure, `${outcome.maxRssMb} MB`).toBeUndefined();
    }, 120_000);
  }
});
