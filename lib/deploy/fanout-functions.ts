import { Duration } from 'aws-cdk-lib';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { grantFanoutStep, MAP_ACCESS, PLAN_ACCESS, REDUCE_ACCESS } from './fanout-grants.js';
import type { GateBucket } from './gate-bucket.js';
import { GateFunction } from './gate-function.js';
import type { GateTopic } from './gate-topic.js';
import { grantReadRegistry } from './registry-grants.js';

export interface FanoutFunctionsProps {
  /** Function names start with this, e.g. `contract-gate-prod`. */
  readonly namePrefix: string;
  readonly gateBucket: GateBucket;
  readonly notices: GateTopic;
  readonly logRetention: RetentionDays;
  /** Of the map and reduce steps, which read data as the validate function does. */
  readonly memorySize: number;
  readonly timeout: Duration;
  /** When contracts come from the registry: nothing bundled, the registry read instead. @default bundled contracts */
  readonly registry?: { readonly refreshSeconds: number };
  /** The contract files to bundle (their paths). @default the `*.yaml` and `*.yml` in `<projectRoot>/contracts` */
  readonly contractFiles?: readonly string[];
}

/** The four steps of the fan-out (lambdas/fanout/), bundled like the gate's other handlers. */
export class FanoutFunctions extends Construct {
  readonly plan: GateFunction;
  readonly mapFile: GateFunction;
  readonly reduceShard: GateFunction;
  readonly decide: GateFunction;

  constructor(scope: Construct, id: string, props: FanoutFunctionsProps) {
    super(scope, id);
    const step = (id: string, handler: string, description: string, sizing: { memorySize: number; timeout: Duration }) => new GateFunction(this, id, {
      functionName: `${props.namePrefix}-fanout-${handler}`,
      description: `contract-gate fan-out: ${description}`,
      entry: `lambdas/fanout/${handler}.ts`,
      logRetention: props.logRetention,
      bundleContracts: props.registry === undefined,
      ...(props.contractFiles ? { contractFiles: props.contractFiles } : {}),
      ...sizing,
    });
    const reading = { memorySize: props.memorySize, timeout: props.timeout };
    this.plan = step('Plan', 'plan', 'lists a big partition\'s files as the map\'s items', { memorySize: 512, timeout: Duration.minutes(2) });
    this.mapFile = step('MapFile', 'map-file', 'checks one file of a big partition', reading);
    this.reduceShard = step('ReduceShard', 'reduce-shard', 'confirms one shard\'s repeated keys by value', reading);
    // Carrying out copies every file of the partition: the longest a function may run.
    this.decide = step('Decide', 'decide', 'merges the results, decides, publishes or quarantines, notifies', { memorySize: 1024, timeout: Duration.minutes(15) });
    grantFanoutStep(props.gateBucket, this.plan.function, PLAN_ACCESS);
    grantFanoutStep(props.gateBucket, this.mapFile.function, MAP_ACCESS);
    grantFanoutStep(props.gateBucket, this.reduceShard.function, REDUCE_ACCESS);
    // The decide step moves data and records decisions exactly as the validate function does.
    props.gateBucket.grantValidate(this.decide.function);
    props.notices.grantPublish(this.decide.function);
    if (props.registry) for (const step of this.all) grantReadRegistry(props.gateBucket, step.function, props.registry.refreshSeconds);
  }

  get all(): readonly GateFunction[] {
    return [this.plan, this.mapFile, this.reduceShard, this.decide];
  }
}
