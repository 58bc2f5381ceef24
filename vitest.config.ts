import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The SDK warns once per process about its Node support window; the tests pin their Node (package.json).
    // Handlers log and publish metrics through Powertools, to stdout as in CloudWatch; quiet here.
    // Tests of the lines themselves turn them back on (test/lambdas/handler-observability.test.ts).
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', POWERTOOLS_LOG_LEVEL: 'SILENT', POWERTOOLS_METRICS_DISABLED: 'true' },
  },
});
