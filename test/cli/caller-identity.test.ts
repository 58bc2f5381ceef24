import { describe, expect, it } from 'vitest';
import { callerIdentity } from '../../lib/cli/caller-identity.js';

const neverAsked = async (): Promise<string> => {
  throw new Error('STS was asked');
};
const ANA = 'arn:aws:sts::123456789012:assumed-role/owner/ana';

describe('who runs an owner command', () => {
  it('is --by at an endpoint, where there is no STS to ask', async () => {
    expect(await callerIdentity({ by: ' ana@example.com ', endpoint: 'http://127.0.0.1:4566' }, neverAsked)).toEqual({ by: 'ana@example.com', caller: null });
    await expect(callerIdentity({ by: '  ' }, neverAsked)).rejects.toMatchObject({ code: 'bad_arguments', message: '--by must name who does this' });
  });

  it('is the ARN STS names for the caller on AWS', async () => {
    expect(await callerIdentity({}, async () => ANA)).toEqual({ by: ANA, caller: ANA });
  });

  it('keeps the STS identity beside --by on AWS: --by names someone, it does not hide who ran the command', async () => {
    expect(await callerIdentity({ by: 'orders-oncall@example.com' }, async () => ANA)).toEqual({ by: 'orders-oncall@example.com', caller: ANA });
  });

  it('cannot be told at an endpoint without STS unless a local stand-in is allowed', async () => {
    await expect(callerIdentity({ endpoint: 'http://127.0.0.1:4566' }, neverAsked)).rejects.toMatchObject({ code: 'bad_arguments', message: expect.stringContaining('pass --by <who>') });
    expect(await callerIdentity({ endpoint: 'http://127.0.0.1:4566', local: () => 'me (local endpoint)' }, neverAsked)).toEqual({ by: 'me (local endpoint)', caller: null });
  });
});
