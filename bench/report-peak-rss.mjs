// Preloaded into a measured process: reports its peak resident set size when it exits.
import { writeSync } from 'node:fs';

process.on('exit', () => {
  writeSync(2, `\n@@peak_rss_bytes=${process.resourceUsage().maxRSS * 1024}\n`);
});
