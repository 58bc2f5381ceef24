/**
 * Imported first by the entry points: the SDK warns once per process, when the first client is
 * built, that its 2027 releases need Node 22. The project runs on Node 20 on purpose (see
 * vitest.config.ts and lib/cli/main.ts, which set the same switch), and harness output stays quiet.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

export const SDK_QUIET = true;
