import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { Duration, Validations } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, LoggingFormat, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

/** The repository root: entries, the lock file and `contracts/` are found from here (compiled, from dist/lib/deploy/). */
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
   * `slice-worker.mjs`, for a handler that checks with worker threads. @default false
   */
  readonly sliceWorker?: boolean;
  /**
   * Copies `contracts/*.yaml` beside the handler. Off for a handler that reads the contract
   * registry on the bucket, or none at all. @default true
   */
  readonly bundleContracts?: boolean;
  /** @default no reservation: the account's unreserved concurrency */
  readonly reservedConcurrentExecutions?: number;
}

/**
 * A gate handler as a Lambda function: bundled locally with esbuild into one ESM file, the
 * contracts copied beside it (unless they come from the registry), JSON logs into a log group of its own, and a role that starts with
 * nothing but writing to that log group. Grants add the rest.
 */
export class GateFunction extends Construct {
  readonly function: NodejsFunction;
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
    this.function = new NodejsFunction(this, 'Function', {
      functionName: props.functionName,
      description: props.description,
      entry: join(projectRoot, props.entry),
      handler: 'handler',
      projectRoot,
      depsLockFilePath: join(projectRoot, 'package-lock.json'),
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize,
      timeout: props.timeout,
      role: this.role,
      logGroup: this.logGroup,
      loggingFormat: LoggingFormat.JSON,
      environment: { NODE_OPTIONS: '--enable-source-maps' },
      ...(props.reservedConcurrentExecutions === undefined ? {} : { reservedConcurrentExecutions: props.reservedConcurrentExecutions }),
      bundling: gateBundling({ sliceWorker: props.sliceWorker ?? false, contracts: props.bundleContracts ?? true, projectRoot }),
    });
    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'Node.js 22 on purpose: the gate is developed and tested on Node 20/22 (package.json engines), and a runtime change is its own reviewed change.',
    });
  }
}

const REQUIRE_BANNER = "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

/** Bundling shared by the gate's handlers. */
export function gateBundling(options: { readonly sliceWorker?: boolean; readonly contracts?: boolean; readonly projectRoot?: string } = {}): BundlingOptions {
  return {
    // Local esbuild (a pinned dev dependency): no Docker on build machines or in CI.
    forceDockerBundling: false,
    format: OutputFormat.ESM,
    // ESM output has no `require`; bundled CommonJS dependencies still call it.
    banner: REQUIRE_BANNER,
    mainFields: ['module', 'main'],
    minify: true,
    sourceMap: true,
    // Stack traces only need the mappings; the sources would double the asset.
    sourcesContent: false,
    // Bundle the pinned AWS SDK the gate is tested with, not whichever one the runtime carries.
    externalModules: [],
    commandHooks: {
      beforeBundling: () => [],
      beforeInstall: () => [],
      // Bundled contracts are read from `contracts/` beside the handler: a contract change ships
      // as a reviewed deploy. With the registry the asset carries none, so none can be stale.
      afterBundling: (inputDir: string, outputDir: string) => [
        ...((options.contracts ?? true) ? [`mkdir -p "${outputDir}/contracts"`, `cp "${inputDir}/contracts/"*.yaml "${outputDir}/contracts/"`] : []),
        ...(options.sliceWorker ? [sliceWorkerBundling(options.projectRoot ?? PROJECT_ROOT, inputDir, outputDir)] : []),
      ],
    },
  };
}

/** The worker threads' entry, bundled as the handler is, where parallel-checks.ts starts it from. */
function sliceWorkerBundling(projectRoot: string, inputDir: string, outputDir: string): string {
  const esbuild = join(projectRoot, 'node_modules', '.bin', 'esbuild');
  return [
    `"${esbuild}" "${inputDir}/lib/parallel/slice-worker.ts" --bundle --platform=node --format=esm --target=node22`,
    '--main-fields=module,main --minify --sourcemap --sources-content=false --log-level=warning',
    `--banner:js="${REQUIRE_BANNER}" --outfile="${outputDir}/slice-worker.mjs"`,
  ].join(' ');
}
