import { Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { ContractGate, type ContractGateProps } from './contract-gate.js';

export interface GateStackProps extends StackProps {
  /** The gate's settings: an environment of cdk.json, with its name. */
  readonly gate: ContractGateProps & { readonly name: string };
}

/** The project's own deployment: one stack per environment, holding one ContractGate. */
export class GateStack extends Stack {
  readonly gate: ContractGate;

  constructor(scope: Construct, id: string, props: GateStackProps) {
    super(scope, id, props);
    // "Default" leaves the construct out of logical IDs: the resources keep the IDs they had
    // when they were this stack's own, so an existing deployment updates in place.
    this.gate = new ContractGate(this, 'Default', props.gate);
  }
}
