/**
 * The CPU milliseconds a synchronous call takes, and its result. CPU time rather than wall time:
 * the suite shares its machine with other work, and what a bound promises is the work done.
 */
export function cpuTimed<T>(run: () => T): { result: T; ms: number } {
  const start = process.cpuUsage();
  const result = run();
  const used = process.cpuUsage(start);
  return { result, ms: (used.user + used.system) / 1000 };
}
