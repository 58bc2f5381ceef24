/** One JSON object per line: what CloudWatch Logs Insights queries and metric filters read. */
export function logJson(level: 'info' | 'warn' | 'error', message: string, fields: object = {}): void {
  const line = JSON.stringify({ level, message, time: new Date().toISOString(), ...fields });
  if (level === 'error') console.error(line);
  else console.log(line);
}
