import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A stack of a synthesized cloud assembly, read from its manifest. */
export interface AssemblyStack {
  /** The artifact ID (`Stage-Stack` for a stack in a stage). */
  readonly id: string;
  readonly stackName: string;
  /** Undefined for an environment-agnostic stack. */
  readonly account?: string;
  readonly region?: string;
  readonly templateFile: string;
  readonly template: { readonly Resources?: Record<string, { readonly Type: string; readonly Properties?: Record<string, unknown> }> };
}

interface Manifest {
  readonly artifacts?: Record<string, { type: string; environment?: string; displayName?: string; properties?: { templateFile?: string; stackName?: string; directoryName?: string } }>;
}

/**
 * Every stack of the assembly in `dir`, those of its stages (nested assemblies) included, read
 * from manifest.json alone: the assembly may come from another app's aws-cdk-lib.
 */
export function assemblyStacks(dir: string): AssemblyStack[] {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
  return Object.entries(manifest.artifacts ?? {}).flatMap(([id, artifact]): AssemblyStack[] => {
    if (artifact.type === 'cdk:cloud-assembly') return assemblyStacks(join(dir, artifact.properties!.directoryName!));
    if (artifact.type !== 'aws:cloudformation:stack') return [];
    const templateFile = join(dir, artifact.properties!.templateFile!);
    const [, account, region] = /^aws:\/\/([^/]+)\/(.+)$/.exec(artifact.environment ?? '') ?? [];
    return [{
      id,
      stackName: artifact.properties?.stackName ?? id,
      ...(account && account !== 'unknown-account' ? { account } : {}),
      ...(region && region !== 'unknown-region' ? { region } : {}),
      templateFile,
      template: JSON.parse(readFileSync(templateFile, 'utf8')) as AssemblyStack['template'],
    }];
  });
}
