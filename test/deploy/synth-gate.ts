import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import { parseContract } from '../../lib/contract/load-contract.js';
import type { Contract } from '../../lib/contract/model.js';
import { addGateStack } from '../../lib/deploy/gate-app.js';
import { PROJECT_ROOT } from '../../lib/deploy/gate-function.js';
import type { GateStack } from '../../lib/deploy/gate-stack.js';
import { loadContractDirectory } from '../../lib/storage/contract-directory.js';

/**
 * Environments for the tests, independent of what cdk.json holds today. dev and prod ship with
 * bundled contracts, lake and reg read the registry (lake by default, reg with its own settings).
 */
export const TEST_ENVIRONMENTS = {
  dev: { bucket: { create: true }, alertEmails: ['gate-alerts@example.com'], contracts: { source: 'bundled' } },
  prod: {
    bucket: { create: true, name: 'acme-contract-gate-prod' },
    contracts: { source: 'bundled' },
    alertEmails: ['data-oncall@example.com', 'orders-oncall@example.com'],
    probeIntervalMinutes: 10,
    logRetentionDays: 90,
    quarantineRetentionDays: 120,
    stateRetentionDays: 45,
    noncurrentVersionRetentionDays: 14,
    validateMemoryMb: 3008,
    validateTimeoutSeconds: 600,
    validateMaxConcurrency: 20,
    queueAgeAlarmMinutes: 90,
  },
  lake: {
    bucket: { import: 'acme-existing-lake' },
    prefixes: { staging: 'gate/in/', published: 'gate/out/', quarantine: 'gate/bad/', state: 'gate/_state/' },
    marker: 'READY.json',
    // The fan-out starts from the bucket's EventBridge delivery, which this stack turns on.
    fanout: { bucketEventBridge: 'enable' },
  },
  reg: {
    bucket: { create: true },
    alertEmails: ['gate-alerts@example.com', 'orders-oncall@example.com'],
    contracts: { source: 'registry', prefix: 'registry/', refreshSeconds: 30 },
    fanout: { enabled: true },
  },
};

export interface GateSynth {
  readonly app: App;
  readonly stack: GateStack;
  readonly template: Template;
  readonly assembly: CloudAssembly;
  /** The logical ID of a construct's CloudFormation resource. */
  logicalId(element: { node: { defaultChild?: unknown } }): string;
  /** Removes the synthesized assembly. */
  dispose(): void;
}

/** Synthesizes the gate app as `cdk synth -c env=<env>` would, cdk-nag included, into a temporary directory. */
export async function synthGate(env: string, options: { contracts?: readonly Contract[]; environments?: object } = {}): Promise<GateSynth> {
  const contracts = options.contracts ?? (await repositoryContracts());
  const outdir = mkdtempSync(join(tmpdir(), 'contract-gate-cdk-'));
  const app = new App({ outdir, context: { env, environments: options.environments ?? TEST_ENVIRONMENTS } });
  const stack = addGateStack(app, contracts);
  const assembly = app.synth();
  return {
    app,
    stack,
    assembly,
    template: Template.fromStack(stack),
    logicalId: (element) => stack.getLogicalId(element.node.defaultChild as CfnElement),
    dispose: () => rmSync(outdir, { recursive: true, force: true }),
  };
}

export async function repositoryContracts(): Promise<readonly Contract[]> {
  return (await loadContractDirectory(join(PROJECT_ROOT, 'contracts'))).all();
}

/**
 * A second contract whose owners overlap the orders contract's, for the subscription tests, from
 * a file of its own as loadContractDirectory reads one: bundled contracts ship as files.
 */
export function paymentsContract(): Contract {
  const text = [
    'name: payments',
    'version: 1.0.0',
    'owner: { team: payments, notify: [payments-team@example.com, orders-oncall@example.com, shared-analytics@example.com] }',
    'produces: { format: parquet, partition: "dt={ds}" }',
    'schema:',
    '  grain: [payment_id]',
    '  columns:',
    '    - { name: payment_id, type: string, required: true }',
  ].join('\n');
  const file = join(mkdtempSync(join(tmpdir(), 'contract-gate-payments-')), 'payments.v1.yaml');
  writeFileSync(file, text);
  const { contract, problems } = parseContract(text, file);
  if (!contract) throw new Error(`test contract is invalid: ${JSON.stringify(problems)}`);
  return { ...contract, origin: { location: file, sha256: createHash('sha256').update(text).digest('hex') } };
}

/** `<bucket ARN>/<prefix>*` as CDK renders it for a bucket created in the stack. */
export function objectArn(bucketLogicalId: string, prefix: string): object {
  return { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketLogicalId, 'Arn'] }, `/${prefix}*`]] };
}

/** Every statement of every policy document in the template, with where it came from. */
export function allStatements(template: Template): { resource: string; type: string; statement: Record<string, unknown> }[] {
  const found: { resource: string; type: string; statement: Record<string, unknown> }[] = [];
  for (const [resource, definition] of Object.entries(template.toJSON().Resources as Record<string, { Type: string; Properties?: Record<string, unknown> }>)) {
    const props = definition.Properties ?? {};
    const documents = [props.PolicyDocument, props.KeyPolicy, ...((props.Policies as { PolicyDocument: unknown }[] | undefined) ?? []).map((p) => p.PolicyDocument)];
    for (const document of documents) {
      for (const statement of ((document as { Statement?: Record<string, unknown>[] } | undefined)?.Statement ?? [])) {
        found.push({ resource, type: definition.Type, statement });
      }
    }
  }
  return found;
}

export const asList = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]);

/** The staged directory of a function's code asset, found through the stack's asset manifest. */
/** The file of the function's handler in its asset: `validate.mjs` for `validate.handler`. */
export function handlerModule(gate: GateSynth, functionLogicalId: string): string {
  const handler = gate.template.toJSON().Resources[functionLogicalId].Properties.Handler as string;
  return `${handler.slice(0, handler.lastIndexOf('.'))}.mjs`;
}

export function assetDirectory(gate: GateSynth, functionLogicalId: string): string {
  const code = gate.template.toJSON().Resources[functionLogicalId].Properties.Code as { S3Key: string };
  const hash = code.S3Key.replace(/\.zip$/, '');
  const artifact = gate.assembly.getStackArtifact(gate.stack.artifactId);
  const manifest = artifact.dependencies.find((d) => d.manifest.type === 'cdk:asset-manifest');
  const file = join(gate.assembly.directory, (manifest!.manifest.properties as { file: string }).file);
  const source = (JSON.parse(readFileSync(file, 'utf8')) as { files: Record<string, { source: { path: string; packaging: string } }> }).files[hash]!.source;
  if (source.packaging !== 'zip') throw new Error(`asset ${hash} is packaged as ${source.packaging}, not zip`);
  return join(gate.assembly.directory, source.path);
}

