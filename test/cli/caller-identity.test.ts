import { describe, expect, it } from 'vitest';
import { callerIdentity } from '../../lib/cli/caller-identity.js';

const neverAsked = async (): Promise<string> => {
  throw new Error('STS was asked');
};

describe('who runs an owner command', () => {
  it('is --by when given, whatever the endpoint', async () => {
    expect(await callerIdentity({ by: ' ana@example.com ', endpoint: 'http://127.0.0.1:4566' }, neverAsked)).toBe('ana@example.com');
    await expect(callerIdentity({ by: '  ' }, neverAsked)).rejects.toMatchObject({ code: 'bad_arguments', message: '--by must name who does this' });
  });

  it('is the ARN STS names for the caller on AWS', async () => {
    expect(await callerIdentity({}, async () => 'arn:aws:sts::123456789012:assumed-role/owner/ana')).toBe('arn:aws:sts::123456789012:assumed-role/owner/ana');
  });

  it('cannot be told at an endpoint without STS unless a local stand-in is allowed', async () => {
    await expect(callerIdentity({ endpoint: 'http://127.0.0.1:4566' }, neverAsked)).rejects.toMatchObject({ code: 'bad_arguments', message: expect.stringContaining('pass --by <who>') });
    expect(await callerIdentity({ endpoint: 'http://127.0.0.1:4566', local: () => 'me (local endpoint)' }, neverAsked)).toBe('me (local endpoint)');
  });
});
