import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { CONTRACT_DIMENSION, GATE_DIMENSION, GATE_LOG_KEY, type OutcomeMetricUnit } from '../lib/gate/outcome-metrics.js';

/**
 * Logs and metrics of every gate function, through Powertools for AWS Lambda: one JSON object
 * per log line (with the invocation's request id and a correlation id) and CloudWatch metrics as
 * EMF lines, which CloudWatch Logs turns into metrics without a PutMetricData call.
 *
 * Environment: POWERTOOLS_SERVICE_NAME (default `contract-gate`), POWERTOOLS_METRICS_NAMESPACE
 * (default `ContractGate`), POWERTOOLS_LOG_LEVEL (default INFO), POWERTOOLS_METRICS_DISABLED, and
 * GATE_NAME, which the deployment sets to tell one gate's metrics and logs from another's in one
 * account: every metric gets the dimension `Gate` and every log line the key `gate`. Unset (a
 * local run) both are left out, rather than filed under a made-up gate a dashboard would show.
 */
export const DEFAULT_SERVICE = 'contract-gate';
export const DEFAULT_NAMESPACE = 'ContractGate';

/** Lambda's context, as far as the gate's functions use it to stop in time. */
export interface LambdaContext {
  getRemainingTimeInMillis(): number;
}

/** What Lambda passes as the context, as far as logs use it; absent fields are left out of the lines. */
export interface InvocationContext extends LambdaContext {
  readonly awsRequestId?: string;
  readonly functionName?: string;
  readonly functionVersion?: string;
  readonly invokedFunctionArn?: string;
  readonly memoryLimitInMB?: string | number;
}

/** One logger per function, shared by its invocations; keys of one invocation are reset after it. */
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME || DEFAULT_SERVICE, persistentKeys: gateKeys(GATE_LOG_KEY) });

/**
 * Runs one invocation with the request id and the correlation id on every line it logs, and
 * clears them after, so a warm function's next invocation starts clean.
 */
export async function observed<T>(context: InvocationContext | undefined, correlationId: string | undefined, run: () => Promise<T>): Promise<T> {
  if (context?.awsRequestId) logger.addContext(context as Parameters<Logger['addContext']>[0]);
  const id = correlationId ?? context?.awsRequestId;
  if (id) logger.setCorrelationId(id);
  try {
    return await run();
  } finally {
    logger.resetKeys();
  }
}

/**
 * A logger for the lines about one drop: the invocation's keys plus the drop's, on a child, so
 * nothing of one drop leaks onto the lines of the next one in the same batch.
 */
export function dropLogger(keys: object): Logger {
  const child = logger.createChild();
  child.appendKeys({ ...keys });
  return child;
}

/**
 * Publishes one drop's metrics as one EMF line, twice over: per contract (dimensions `service`,
 * `Gate`, `contract`) for the dashboard's graphs, and for the whole gate (`service`, `Gate`), which
 * an alarm can watch (an alarm takes no SEARCH). A fresh Metrics per line: dimensions differ from
 * drop to drop, and nothing stays buffered for a later invocation if this one fails.
 */
export function publishContractMetrics(contractMetrics: { readonly contract: string; readonly metrics: readonly MetricValue[] } | undefined): void {
  if (!contractMetrics || contractMetrics.metrics.length === 0) return;
  const metrics = newMetrics();
  metrics.addDimension(CONTRACT_DIMENSION, contractMetrics.contract);
  // An empty set is the default dimensions alone: the gate-wide aggregate.
  metrics.addDimensions({});
  for (const metric of contractMetrics.metrics) metrics.addMetric(metric.name, UNIT[metric.unit], metric.value);
  metrics.publishStoredMetrics();
}

/** Publishes function-wide metrics (dimensions `service` and `Gate`) as one EMF line. */
export function publishServiceMetrics(values: readonly MetricValue[]): void {
  if (values.length === 0) return;
  const metrics = newMetrics();
  for (const metric of values) metrics.addMetric(metric.name, UNIT[metric.unit], metric.value);
  metrics.publishStoredMetrics();
}

export interface MetricValue {
  readonly name: string;
  readonly unit: OutcomeMetricUnit;
  readonly value: number;
}

const UNIT = { Count: MetricUnit.Count, Bytes: MetricUnit.Bytes, Seconds: MetricUnit.Seconds } as const;

// Read at each publish: Metrics takes POWERTOOLS_METRICS_DISABLED when it is constructed.
function newMetrics(): Metrics {
  return new Metrics({
    namespace: process.env.POWERTOOLS_METRICS_NAMESPACE || DEFAULT_NAMESPACE,
    serviceName: process.env.POWERTOOLS_SERVICE_NAME || DEFAULT_SERVICE,
    defaultDimensions: gateKeys(GATE_DIMENSION),
  });
}

/** `{ [key]: GATE_NAME }`, or nothing when GATE_NAME is unset or empty. */
function gateKeys(key: string): Record<string, string> {
  const gate = process.env.GATE_NAME;
  return gate ? { [key]: gate } : {};
}
