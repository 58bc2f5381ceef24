import { Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { Contract } from '../contract/model.js';
import { ContractGate } from './contract-gate.js';
import type { EnvironmentConfig } from './environment-config.js';
import { environmentGateProps } from './environment-props.js';

export interface GateStackProps extends StackProps {
  /** The gate's settings: an environment of cdk.json, as environmentConfig read it. */
  readonly environment: EnvironmentConfig;
  /** The contracts shipped with `contracts.source` "bundled". @default the `*.yaml` of `contracts/` */
  readonly bundledContracts?: readonly Contract[];
}

/** The project's own deployment: one stack per environment, holding one ContractGate. */
export class GateStack extends Stack {
  readonly gate: ContractGate;

  constructor(scope: Construct, id: string, props: GateStackProps) {
    const { environment, bundledContracts, ...stackProps } = props;
    super(scope, id, stackProps);
    // "Default" leaves the construct out of logical IDs: the resources keep the IDs they had
    // when they were this stack's own, so an existing deployment updates in place.
    this.gate = new ContractGate(this, 'Default', environmentGateProps(this, environment, bundledContracts));
  }
}
