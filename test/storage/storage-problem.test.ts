import { S3ServiceException } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { GateError } from '../../lib/errors.js';
import { isLoopback, storageProblem } from '../../lib/storage/storage-problem.js';

// What stopped a request, told from the SDK's error wherever it sits in a chain of causes. The
// kinds a real endpoint or the SDK produces here (a dead port, no region, no credentials, no
// bucket) are shown through the CLI in test/cli/storage-advice.test.ts; S3's refusals need AWS.

const s3Error = (name: string, status: number, message: string) =>
  new S3ServiceException({ name, $fault: 'client', $metadata: { httpStatusCode: status }, message });

describe('storageProblem', () => {
  it('finds S3 refusing the caller under the GateError the store wraps it in', () => {
    const wrapped = new GateError('storage_failed', 'list s3://lake/_contracts/: Access Denied', { cause: s3Error('AccessDenied', 403, 'Access Denied') });
    expect(storageProblem(wrapped)).toEqual({ kind: 'access_denied', detail: 'AccessDenied: Access Denied' });
    expect(storageProblem(new Error('outer', { cause: s3Error('Forbidden', 403, 'UnknownError') }))?.kind).toBe('access_denied');
  });

  it('is no storage problem for a missing key or a plain error', () => {
    expect(storageProblem(s3Error('NoSuchKey', 404, 'The specified key does not exist.'))).toBeUndefined();
    expect(storageProblem(new Error('something else'))).toBeUndefined();
  });

  it('names an IPv6 address that did not answer as a URL would', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED ::1:4566'), { code: 'ECONNREFUSED', address: '::1', port: 4566 });
    expect(storageProblem(refused)).toEqual({ kind: 'unreachable', address: '[::1]:4566', detail: 'connect ECONNREFUSED ::1:4566' });
    expect(isLoopback('http://[::1]:4566')).toBe(true);
    expect(isLoopback('https://minio.example.com:9000')).toBe(false);
  });
});
