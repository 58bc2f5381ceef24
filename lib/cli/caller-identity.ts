import { userInfo } from 'node:os';
import { describeError, GateError } from '../errors.js';

/** Asks AWS who the caller is; injected in tests, which reach no AWS. */
export type IdentityLookup = () => Promise<string>;

/** Who did an owner's action, as the audit record keeps it: two fields, neither standing in for the other. */
export interface CallerIdentity {
  /** `--by` when given (who the owner says did it), else the caller. */
  readonly by: string;
  /** The caller's ARN from STS GetCallerIdentity on AWS, asked even when `--by` is given; null at an endpoint. */
  readonly caller: string | null;
}

/**
 * Who runs an owner's command. On AWS STS GetCallerIdentity (which needs no permission) always
 * answers, so `--by` can add a name but never hide who ran it. An S3-compatible `--endpoint` has
 * no STS beside it: there `local` says what stands in for `by`, or undefined to demand `--by`.
 */
export async function callerIdentity(options: { by?: string; endpoint?: string; local?: () => string }, lookup: IdentityLookup = stsCallerArn): Promise<CallerIdentity> {
  const by = options.by?.trim();
  if (by === '') throw new GateError('bad_arguments', '--by must name who does this');
  if (options.endpoint !== undefined) {
    if (by !== undefined) return { by, caller: null };
    if (options.local) return { by: options.local(), caller: null };
    throw new GateError('bad_arguments', `pass --by <who>: there is no STS at --endpoint ${options.endpoint} to tell who you are`);
  }
  const caller = await lookup();
  return { by: by ?? caller, caller };
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
    throw new GateError('bad_arguments', `cannot tell who you are (STS GetCallerIdentity: ${describeError(error)}): the audit record needs the caller's identity on AWS, --by does not replace it; check your AWS credentials`, { cause: error });
  } finally {
    client.destroy();
  }
}
