import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { Duration, Stage, Validations } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Code, Function as LambdaFunction, LoggingFormat, Runtime, type FunctionProps } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { bundleWithContracts, contractFilesOf } from './contracts-asset.js';
import { BUNDLE_SETTINGS, REQUIRE_BANNER, SLICE_WORKER_ENTRY } from './handler-bundles.js';
import { prebuiltBundle } from './prebuilt-bundle.js';

/**
 * The repository root, or the package root when installed: entries, the bundles, the lock file
 * and `contracts/` are found from here (compiled, from dist/lib/deploy/).
 */
export const PROJECT_ROOT = fileURLToPath(new URL(/\/dist\/lib\/deploy\/[^/]+$/.test(import.meta.url) ? '../../../' : '../../', import.meta.url));

export interface GateFunctionProps {
  readonly functionName: string;
  readonly description: string;
  /** The handler module, relative to the project root. */
  readonly entry: string;
  readonly memorySize: number;
  readonly timeout: Duration;
  readonly logRetention: RetentionDays;
  /** @default PROJECT_ROOT */
  readonly projectRoot?: string;
  /**
   * Bundles the slice worker (lib/parallel/slice-worker.ts) beside the handler as
   * `slice-worker.mjs`, for a handler that checks with worker threads. Prebuilt bundles carry it
   * where handler-bundles.ts says. @default false
   */
  readonly sliceWorker?: boolean;
  /**
   * Copies the contracts into `contracts/` beside the handler. Off for a handler that reads the
   * contract registry on the bucket, or none at all. @default true
   */
  readonly bundleContracts?: boolean;
  /** The contract files to bundle (a loaded contract's `origin.location`). @default the `*.yaml` and `*.yml` in `contractsDirectory` */
  readonly contractFiles?: readonly string[];
  /** Where the bundled contracts are, when `contractFiles` does not name them. @default `<projectRoot>/contracts` */
  readonly contractsDirectory?: string;
  /** @default no reservation: the account's unreserved concurrency */
  readonly reservedConcurrentExecutions?: number;
}

/**
 * A gate handler as a Lambda function: one ESM file that `npm run build` bundled
 * (dist/bundles/<name>/), so a synth needs no esbuild, the contracts copied beside it (unless
 * they come from the registry), JSON logs into a log group of its own, and a role that starts
 * with nothing but writing to that log group. Grants add the rest. A clone whose handler sources
 * changed since the last build bundles them afresh with the pinned esbuild instead.
 */
export class GateFunction extends Construct {
  readonly function: LambdaFunction;
  readonly logGroup: LogGroup;
  readonly role: Role;

  constructor(scope: Construct, id: string, props: GateFunctionProps) {
    super(scope, id);
    const projectRoot = props.projectRoot ?? PROJECT_ROOT;
    this.logGroup = new LogGroup(this, 'LogGroup', {
      logGroupName: `/aws/lambda/${props.functionName}`,
      retention: props.logRetention,
    });
    // Our own role rather than AWSLambdaBasicExecutionRole, whose log grant covers every log group.
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Runs the ${props.functionName} function`,
    });
    this.logGroup.grantWrite(this.role);
    const common = {
      functionName: props.functionName,
      description: props.description,
      handler: 'index.handler',
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize,
      timeout: props.timeout,
      role: this.role,
      logGroup: this.logGroup,
      loggingFormat: LoggingFormat.JSON,
      ...(props.reservedConcurrentExecutions === undefined ? {} : { reservedConcurrentExecutions: props.reservedConcurrentExecutions }),
    } satisfies Omit<FunctionProps, 'code'>;
    const contracts = (props.bundleContracts ?? true) ? contractFilesOf(props.contractsDirectory ?? join(projectRoot, 'contracts'), props.contractFiles) : undefined;
    const prebuilt = prebuiltBundle(projectRoot, props.entry);
    if (prebuilt.kind === 'missing') {
      throw new Error(`contract-gate: no prebuilt bundle of ${props.entry}${prebuilt.dir ? ` in ${prebuilt.dir}` : ''}; npm run build makes them (an installed package ships them)`);
    }
    if (prebuilt.kind === 'fresh') {
      const dir = contracts === undefined ? prebuilt.dir : bundleWithContracts(prebuilt.dir, contracts, stagingRoot(this));
      this.function = new LambdaFunction(this, 'Function', { ...common, handler: prebuilt.handler, code: Code.fromAsset(dir) });
    } else {
      this.function = new NodejsFunction(this, 'Function', {
        ...common,
        entry: join(projectRoot, props.entry),
        handler: 'handler',
        projectRoot,
        depsLockFilePath: join(projectRoot, 'package-lock.json'),
        bundling: gateBundling({ sliceWorker: props.sliceWorker ?? false, contracts: contracts !== undefined, ...(contracts === undefined ? {} : { contractFiles: contracts }), projectRoot }),
      });
    }
    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'Node.js 22 on purpose: the gate is developed and tested on Node 22 (package.json engines, and the node dev dependency its tests run on), and a runtime change is its own reviewed change.',
    });
  }
}

/** Staged assets go under the app's output directory, which a synth owns, never under dist/. */
function stagingRoot(scope: Construct): string {
  return join(Stage.of(scope)?.outdir ?? tmpdir(), 'contract-gate-staging');
}

/**
 * Bundling shared by the gate's handlers when NodejsFunction bundles them at synth time (a clone
 * whose sources changed since the build), with the settings of the prebuilt bundles.
 */
export function gateBundling(options: { readonly sliceWorker?: boolean; readonly contracts?: boolean; readonly contractFiles?: readonly string[]; readonly projectRoot?: string } = {}): BundlingOptions {
  return {
    // Local esbuild (a pinned dev dependency): no Docker on build machines or in CI.
    forceDockerBundling: false,
    format: OutputFormat.ESM,
    banner: BUNDLE_SETTINGS.banner,
    mainFields: [...BUNDLE_SETTINGS.mainFields],
    minify: BUNDLE_SETTINGS.minify,
    sourceMap: BUNDLE_SETTINGS.sourcemap,
    sourcesContent: BUNDLE_SETTINGS.sourcesContent,
    externalModules: [],
    commandHooks: {
      beforeBundling: () => [],
      beforeInstall: () => [],
      // Bundled contracts are read from `contracts/` beside the handler: a contract change ships
      // as a reviewed deploy. With the registry the asset carries none, so none can be stale.
      afterBundling: (inputDir: string, outputDir: string) => [
        ...((options.contracts ?? true) ? [`mkdir -p "${outputDir}/contracts"`, ...copyContracts(inputDir, outputDir, options.contractFiles)] : []),
        ...(options.sliceWorker ? [sliceWorkerBundling(options.projectRoot ?? PROJECT_ROOT, inputDir, outputDir)] : []),
      ],
    },
  };
}

/** Copies the named contract files, else the project's `contracts/*.yaml`, as before there were names. */
function copyContracts(inputDir: string, outputDir: string, files: readonly string[] | undefined): string[] {
  if (!files) return [`cp "${inputDir}/contracts/"*.yaml "${outputDir}/contracts/"`];
  return files.map((file) => `cp "${file}" "${outputDir}/contracts/"`);
}

/** The worker threads' entry, bundled as the handler is, where parallel-checks.ts starts it from. */
function sliceWorkerBundling(projectRoot: string, inputDir: string, outputDir: string): string {
  const esbuild = join(projectRoot, 'node_modules', '.bin', 'esbuild');
  return [
    `"${esbuild}" "${inputDir}/${SLICE_WORKER_ENTRY}" --bundle --platform=node --format=esm --target=${BUNDLE_SETTINGS.target}`,
    '--main-fields=module,main --minify --log-level=warning',
    `--banner:js="${REQUIRE_BANNER}" --outfile="${outputDir}/slice-worker.mjs"`,
  ].join(' ');
}
