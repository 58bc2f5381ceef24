#!/usr/bin/env node
import module from 'node:module';

/**
 * The installed command's entry (package.json `bin`, bundled by scripts/bundle-cli.ts). It turns on
 * V8's compile cache before the CLI is loaded, so a second run does not compile the same code again;
 * Node before 22.1 has no such cache and runs the same without it. The CLI comes in by a dynamic
 * import for that reason: a static one would be compiled before the cache is on.
 */
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
await import('./main.js');
