import { loadContractFile } from '../lib/cli/contract-file.js';
import { contractRegistry } from '../lib/gate/contract-registry.js';
import { decide } from '../lib/gate/decide.js';
import { DEFAULT_LAYOUT, parseMarkerKey } from '../lib/gate/gate-layout.js';
import { readDrop } from '../lib/gate/read-drop.js';
import { createS3Client } from '../lib/storage/s3-client.js';
import type { ObjectStore } from '../lib/storage/object-store.js';
import { s3ObjectStore } from '../lib/storage/s3-object-store.js';

/**
 * `node dist/bench/s3-checks.js <endpoint> <bucket> <marker key> <contract.yaml> <now>`: validates
 * a drop staged on an S3 endpoint the way the validate Lambda does (readDrop, then decide, which
 * runs the checks through a ByteSource over `store.read`), and prints the run's `stats` next to
 * the bytes the endpoint actually returned to `store.read`.
 */
const [endpoint, bucket, markerKey, contractPath, nowText] = process.argv.slice(2);
if (!endpoint || !bucket || !markerKey || !contractPath || !nowText) throw new Error('usage: s3-checks <endpoint> <bucket> <marker key> <contract.yaml> <now>');
const { contract, problems } = await loadContractFile(contractPath);
if (!contract) throw new Error(`${contractPath} is not a valid contract: ${JSON.stringify(problems)}`);
const address = parseMarkerKey(DEFAULT_LAYOUT, markerKey);
if (!address) throw new Error(`${markerKey} is not a marker key of the default layout`);

const s3 = s3ObjectStore({ client: createS3Client({ endpoint }), bucket });
const observed = { bytes: 0, requests: 0 };
const store: ObjectStore = {
  ...s3,
  async read(key, start, end) {
    const bytes = await s3.read(key, start, end);
    observed.requests += 1;
    observed.bytes += bytes.byteLength;
    return bytes;
  },
};
const marker = await s3.head(markerKey);
if (!marker) throw new Error(`no marker at s3://${bucket}/${markerKey}`);
const drop = await readDrop(s3, DEFAULT_LAYOUT, address, marker);
const started = performance.now();
const decision = await decide({ store, contracts: contractRegistry([contract]), now: Date.parse(nowText) }, drop);
const decideMs = performance.now() - started;
const { report } = decision;
process.stdout.write(`${JSON.stringify({
  outcome: decision.outcome,
  rows: report.rows,
  stats: report.stats ?? null,
  endpoint: observed,
  decide_ms: Math.round(decideMs),
  violations: report.violations.map((v) => ({ rule: v.rule, column: v.column ?? null, count: v.count })),
})}\n`);
