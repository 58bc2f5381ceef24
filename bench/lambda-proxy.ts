import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A pass-through HTTP proxy in front of the local S3 endpoint that notes every request the
 * handler makes: when it started and ended, and how many bytes came back. It is how the bench
 * splits an invocation into reading the data and carrying the decision out, without touching the
 * bundle.
 */
export interface S3Request {
  readonly method: string;
  readonly key: string;
  /** A GET with a Range header: a read of part of an object. */
  readonly ranged: boolean;
  /** A PUT with x-amz-copy-source: a server-side copy. */
  readonly copy: boolean;
  readonly startMs: number;
  readonly endMs: number;
  readonly bytesOut: number;
}

export interface RecordingProxy {
  readonly endpoint: string;
  readonly requests: S3Request[];
  stop(): Promise<void>;
}

export async function startRecordingProxy(upstream: string): Promise<RecordingProxy> {
  const target = new URL(upstream);
  const agent = new Agent({ keepAlive: true });
  const requests: S3Request[] = [];
  const server = createServer((incoming, outgoing) => {
    const startMs = performance.now();
    let bytesOut = 0;
    // As a reverse proxy: the endpoint answers only to its own address (lib/local/request-guard.ts).
    const forward = request({ host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: { ...incoming.headers, host: target.host }, agent }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.on('data', (chunk: Buffer) => (bytesOut += chunk.length));
      answer.pipe(outgoing);
      answer.on('end', () => requests.push({
        method: incoming.method ?? '?', key: decodeURIComponent(new URL(incoming.url ?? '/', upstream).pathname), ranged: incoming.headers.range !== undefined,
        copy: incoming.headers['x-amz-copy-source'] !== undefined, startMs, endMs: performance.now(), bytesOut,
      }));
    });
    forward.on('error', (error) => outgoing.destroy(error));
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    stop: async () => {
      server.closeAllConnections();
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Where the time of one invocation went, from its requests (ms from the first request). */
export function requestPhases(requests: readonly S3Request[], dataPrefix: string) {
  const sorted = [...requests].sort((a, b) => a.startMs - b.startMs);
  const first = sorted[0]?.startMs ?? 0;
  const reads = sorted.filter((r) => r.method === 'GET' && r.key.includes(dataPrefix) && r.key.endsWith('.parquet'));
  const carry = sorted.filter((r) => r.copy || r.method === 'DELETE');
  const readEnd = Math.max(0, ...reads.map((r) => r.endMs)) - first;
  const firstCarry = carry.length ? Math.min(...carry.map((r) => r.startMs)) - first : NaN;
  const lastEnd = Math.max(0, ...sorted.map((r) => r.endMs)) - first;
  return {
    requests: sorted.length,
    data_reads: reads.length,
    data_bytes_read: reads.reduce((n, r) => n + r.bytesOut, 0),
    /** Time with at least one data read in flight: the handler waiting on the endpoint, not computing. */
    read_wait_ms: Math.round(coveredMs(reads)),
    /** First request to the last data read: listing, lease, and the checks. */
    read_ms: Math.round(readEnd),
    /** First copy or delete to the last request: publish or quarantine, the notice, the marker. */
    carry_out_ms: Number.isNaN(firstCarry) ? 0 : Math.round(lastEnd - firstCarry),
    copies: sorted.filter((r) => r.copy).length,
  };
}

/** The length of the union of the requests' [start, end] intervals. */
function coveredMs(requests: readonly S3Request[]): number {
  let total = 0;
  let reach = -Infinity;
  for (const r of [...requests].sort((a, b) => a.startMs - b.startMs)) {
    if (r.endMs <= reach) continue;
    total += r.endMs - Math.max(r.startMs, reach);
    reach = r.endMs;
  }
  return total;
}
