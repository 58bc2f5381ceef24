#!/usr/bin/env node
import { runCli } from './run-cli.js';

// The SDK is pinned, so its notice about future releases needing Node 22 does not apply here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const code = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  isTTY: process.stderr.isTTY === true,
});
process.exitCode = code;
