import type { S3ClientConfig } from '@aws-sdk/client-s3';

type RetryStrategyV2 = Extract<NonNullable<S3ClientConfig['retryStrategy']>, { acquireInitialRetryToken: unknown }>;
type RetryToken = Awaited<ReturnType<RetryStrategyV2['acquireInitialRetryToken']>>;

/**
 * The SDK's retry decision (its own classification of throttling, transient and server errors
 * picks what is retried) with a 1 ms delay instead of exponential backoff: a thousand runs of
 * 503s would otherwise spend the whole budget sleeping. No retry quota, so one handler's bad
 * luck does not starve its later calls.
 */
export function fastRetries(maxAttempts: number): RetryStrategyV2 {
  const token = (retries: number): RetryToken => ({ getRetryCount: () => retries, getRetryDelay: () => 1 });
  return {
    acquireInitialRetryToken: async () => token(0),
    async refreshRetryTokenForRetry(previous, info) {
      const retries = previous.getRetryCount() + 1;
      if (info.errorType === 'CLIENT_ERROR' || retries >= maxAttempts) throw info.error;
      return token(retries);
    },
    recordSuccess: () => undefined,
  };
}
