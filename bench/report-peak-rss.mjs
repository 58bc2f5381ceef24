// Preloaded into a measured process: reports its peak resident set size, and the CPU time of all
// its threads (a figure a busy machine disturbs less than wall time), when it exits.
import { writeSync } from 'node:fs';

process.on('exit', () => {
  const usage = process.resourceUsage();
  writeSync(2, `\n@@peak_rss_bytes=${usage.maxRSS * 1024}\n@@cpu_us=${usage.userCPUTime + usage.systemCPUTime}\n`);
});
