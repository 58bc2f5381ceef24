import { userInfo } from 'node:os';
import { describeError, GateError } from '../errors.js';

/** Asks AWS who the caller is; injected in tests, which reach no AWS. */
export type IdentityLookup = () => Promise<string>;

/**
 * Who runs an owner's command, for the audit record: `--by` when given, otherwise the caller's
 * ARN from STS GetCallerIdentity (which needs no permission). An S3-compatible `--endpoint` has no
 * STS beside it: there `local` says what stands in, or undefined to demand `--by`.
 */
export async function callerIdentity(options: { by?: string; endpoint?: string; local?: () => string }, lookup: IdentityLookup = stsCallerArn): Promise<string> {
  if (options.by !== undefined) {
    const by = options.by.trim();
    if (by === '') throw new GateError('bad_arguments', '--by must name who does this');
    return by;
  }
  if (options.endpoint !== undefined) {
    if (options.local) return options.local();
    throw new GateError('bad_arguments', `pass --by <who>: there is no STS at --endpoint ${options.endpoint} to tell who you are`);
  }
  return lookup();
}

/** A local user, for a local lake, where anyone at the keyboard is the owner. */
export function localUser(): string {
  try {
    return `${userInfo().username} (local endpoint)`;
  } catch {
    return 'an unnamed local user (local endpoint)'; // a container user with no passwd entry
  }
}

/** Loaded only here, so the commands that never ask pay nothing for the STS client. */
async function stsCallerArn(): Promise<string> {
  const { STSClient, GetCallerIdentityCommand } = await import('@aws-sdk/client-sts');
  const client = new STSClient({});
  try {
    const { Arn } = await client.send(new GetCallerIdentityCommand({}));
    if (!Arn) throw new Error('the answer has no Arn');
    return Arn;
  } catch (error) {
    throw new GateError('bad_arguments', `cannot tell who you are (STS GetCallerIdentity: ${describeError(error)}); pass --by <who>`, { cause: error });
  } finally {
    client.destroy();
  }
}
