import type { Progress } from '../checks/validate-partition.js';
import type { CliIo } from './cli-io.js';

const REDRAW_MS = 250;

/** A self-overwriting progress line on a terminal; silent anywhere else. */
export function progressLine(io: CliIo): { update: (progress: Progress) => void; clear: () => void } {
  if (!io.isTTY) return { update: () => {}, clear: () => {} };
  let lastDrawn = 0;
  let drawn = false;
  return {
    update(progress) {
      const now = Date.now();
      if (now - lastDrawn < REDRAW_MS) return;
      lastDrawn = now;
      drawn = true;
      io.stderr(`\r\x1b[2Kfiles ${progress.filesDone}/${progress.filesTotal}, ${progress.rowsRead.toLocaleString('en-US')} rows read`);
    },
    clear() {
      if (drawn) io.stderr('\r\x1b[2K');
    },
  };
}
