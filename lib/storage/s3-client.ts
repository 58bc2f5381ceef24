import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';

export interface S3ClientOptions {
  /** An S3-compatible endpoint such as the local emulator; omit for AWS itself. */
  readonly endpoint?: string;
  readonly region?: string;
}

/** Any non-empty pair works: the emulator accepts mismatched signatures but wants them present. */
const EMULATOR_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/**
 * The gate's S3 client. Checksums only when an operation requires them: the SDK's default
 * aws-chunked upload framing is stored verbatim (framing included) by s3rver and by some other
 * S3-compatible servers. Without an endpoint this is a plain client, so AWS_ENDPOINT_URL_S3 and
 * the usual credential chain still apply.
 */
export function createS3Client(options: S3ClientOptions = {}): S3Client {
  const config: S3ClientConfig = {
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
  if (options.region !== undefined) config.region = options.region;
  if (options.endpoint === undefined) return new S3Client(config);
  return new S3Client({
    ...config,
    endpoint: options.endpoint,
    forcePathStyle: true,
    region: options.region ?? 'us-east-1',
    ...(hasEnvironmentCredentials() ? {} : { credentials: EMULATOR_CREDENTIALS }),
  });
}

function hasEnvironmentCredentials(): boolean {
  return Boolean(process.env.AWS_ACCESS_KEY_ID && process.env.AWS_SECRET_ACCESS_KEY);
}
