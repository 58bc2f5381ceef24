import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { environmentConfig } from '../../lib/deploy/environment-config.js';
import { PROJECT_ROOT } from '../../lib/deploy/gate-function.js';

describe('environmentConfig', () => {
  it('fills every default from an environment that only says to create the bucket', () => {
    expect(environmentConfig({ dev: { bucket: { create: true } } }, 'dev')).toEqual({
      name: 'dev',
      bucket: { mode: 'create' },
      prefixes: { staging: 'staging/', published: 'published/', quarantine: 'quarantine/', state: '_gate/' },
      marker: '_READY',
      alertEmails: [],
      probeIntervalMinutes: 5,
      logRetentionDays: 30,
      quarantineRetentionDays: 90,
      stateRetentionDays: 30,
      noncurrentVersionRetentionDays: 30,
      validateMemoryMb: 1769,
      validateTimeoutSeconds: 300,
      validateMaxConcurrency: 10,
      queueAgeAlarmMinutes: 60,
      abandonedAfterHours: 24,
      // On, with the limits derived from the 300 s timeout and 1,769 MB (lib/fanout/fanout-limits.ts).
      fanout: { enabled: true, maxFiles: 200, maxBytes: 2_160_000_000, mapConcurrency: 40 },
      contracts: { source: 'registry', prefix: '_contracts/', refreshSeconds: 10 },
    });
  });

  it('creates the bucket when the environment does not mention one', () => {
    expect(environmentConfig({ dev: {} }, 'dev').bucket).toEqual({ mode: 'create' });
  });

  it('reads a named bucket, an imported bucket and partial prefixes', () => {
    expect(environmentConfig({ a: { bucket: { create: true, name: 'my-lake' } } }, 'a').bucket).toEqual({ mode: 'create', name: 'my-lake' });
    const imported = environmentConfig({ b: { bucket: { import: 'existing-lake' }, prefixes: { staging: 'in/' }, fanout: { bucketEventBridge: 'enabled-by-owner' } } }, 'b');
    expect(imported.bucket).toEqual({ mode: 'import', name: 'existing-lake' });
    expect(imported.prefixes).toEqual({ staging: 'in/', published: 'published/', quarantine: 'quarantine/', state: '_gate/' });
  });

  it('refuses, for an imported bucket, lifecycle settings it would ignore and a fan-out that does not say who turns on EventBridge', () => {
    expect(() => environmentConfig({ b: { bucket: { import: 'existing-lake' }, quarantineRetentionDays: 10, stagingExpirationDays: 3 } }, 'b')).toThrow([
      'cdk.json context "environments.b" is invalid:',
      "  - quarantineRetentionDays: applies to a bucket this stack creates; an imported bucket keeps its owner's lifecycle rules: remove it, or add the rule to the bucket yourself",
      "  - stagingExpirationDays: applies to a bucket this stack creates; an imported bucket keeps its owner's lifecycle rules: remove it, or add the rule to the bucket yourself",
      '  - fanout.bucketEventBridge: required with an imported bucket: the fan-out starts from S3\'s EventBridge delivery, which is bucket-wide. "enable" turns it on for the whole bucket; "enabled-by-owner" says its owner already has; or set fanout.enabled false',
    ].join('\n'));
    expect(environmentConfig({ b: { bucket: { import: 'existing-lake' }, fanout: { enabled: false } } }, 'b').fanout.enabled).toBe(false);
  });

  it('names the known environments when the name is unknown or missing', () => {
    const environments = { prod: {}, dev: {} };
    expect(() => environmentConfig(environments, 'staging')).toThrow('unknown environment "staging"; known environments: dev, prod');
    expect(() => environmentConfig(environments, undefined)).toThrow('choose an environment with -c env=<name>; known environments: dev, prod');
    expect(() => environmentConfig(undefined, 'prod')).toThrow('cdk.json has no "environments" context object');
  });

  it('lists every problem of an environment at once', () => {
    const run = () =>
      environmentConfig(
        {
          prod: {
            bucket: { create: true, name: 'Not_A_Bucket' },
            alertEmails: ['ops@example.com', 'not-an-address'],
            probeIntervalMinute: 5,
            logRetentionDays: 31,
            stateRetentionDays: 7,
            validateTimeoutSeconds: 901,
            validateMaxConcurrency: 1,
            validateMemoryMb: '2048',
          },
        },
        'prod',
      );
    expect(run).toThrow(
      [
        'cdk.json context "environments.prod" is invalid:',
        '  - probeIntervalMinute: unknown key (did you mean "probeIntervalMinutes"?); known keys: bucket, prefixes, marker, alertEmails, probeIntervalMinutes, logRetentionDays, quarantineRetentionDays, stateRetentionDays, noncurrentVersionRetentionDays, validateMemoryMb, validateTimeoutSeconds, validateMaxConcurrency, queueAgeAlarmMinutes, abandonedAfterHours, stagingExpirationDays, objectLock',
        '  - bucket.name: expected an S3 bucket name, got "Not_A_Bucket"',
        '  - alertEmails[1]: expected an e-mail address, got "not-an-address"',
        '  - logRetentionDays: expected one of 1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653, got 31',
        '  - stateRetentionDays: expected an integer from 15 to 36500, got 7',
        '  - validateMemoryMb: expected an integer from 128 to 10240, got "2048"',
        '  - validateTimeoutSeconds: expected an integer from 10 to 900, got 901',
        '  - validateMaxConcurrency: expected an integer from 2 to 1000, got 1',
      ].join('\n'),
    );
  });

  it('refuses a bucket that is both created and imported, or neither', () => {
    expect(() => environmentConfig({ x: { bucket: { create: true, import: 'lake' } } }, 'x')).toThrow('bucket: either { "create": true, "name"?: ... } or { "import": "<bucket name>" }, not both');
    expect(() => environmentConfig({ x: { bucket: { create: false } } }, 'x')).toThrow('bucket.create: expected true');
  });

  it('refuses prefixes that overlap or are not whole segments, and a marker with a slash', () => {
    const run = (prefixes: object, marker?: string) => () => environmentConfig({ x: { prefixes, marker } }, 'x');
    expect(run({ staging: 'data/', published: 'data/published/' })).toThrow('prefixes: staging "data/" and published "data/published/" overlap');
    expect(run({ state: 'gate' })).toThrow('prefixes.state: expected a key prefix of whole segments ending in "/"');
    expect(run({ staging: 'in/*/' })).toThrow('prefixes.staging: expected a key prefix');
    expect(run({ staging: '/in/' })).toThrow('prefixes.staging: expected a key prefix');
    expect(run({}, 'ready/_READY')).toThrow('marker: expected a file name without "/"');
  });

  it('refuses an environment name that cannot be part of resource names', () => {
    expect(() => environmentConfig({ Prod_1: {} }, 'Prod_1')).toThrow('(name): an environment name is 1-20 characters');
  });

  it('reads contracts from the registry unless told to bundle them', () => {
    expect(environmentConfig({ x: { contracts: { source: 'bundled' } } }, 'x').contracts.source).toBe('bundled');
    expect(environmentConfig({ x: { contracts: { prefix: 'registry/contracts/', refreshSeconds: 60 } } }, 'x').contracts).toEqual({ source: 'registry', prefix: 'registry/contracts/', refreshSeconds: 60 });
  });

  it('lists every problem of the contracts section with the others', () => {
    const run = (contracts: object) => () => environmentConfig({ x: { contracts, validateMaxConcurrency: 1 } }, 'x');
    expect(run({ source: 'repo', prefix: 'contracts', refreshSeconds: 0, refreshSecond: 5 })).toThrow([
      'cdk.json context "environments.x" is invalid:',
      '  - validateMaxConcurrency: expected an integer from 2 to 1000, got 1',
      '  - contracts.refreshSecond: unknown key (did you mean "refreshSeconds"?); known keys: source, prefix, refreshSeconds',
      '  - contracts.source: expected one of "bundled", "registry", got "repo"',
      '  - contracts.prefix: expected a key prefix of whole segments ending in "/", such as "_contracts/", got "contracts"',
      '  - contracts.refreshSeconds: expected an integer from 1 to 3600, got 0',
    ].join('\n'));
  });

  it('refuses a registry inside another area, and registry settings for bundled contracts', () => {
    expect(() => environmentConfig({ x: { contracts: { prefix: '_gate/contracts/' } } }, 'x')).toThrow('contracts.prefix: "_gate/contracts/" and prefixes.state "_gate/" overlap: the registry needs a prefix of its own');
    expect(() => environmentConfig({ x: { contracts: { source: 'bundled', refreshSeconds: 5 } } }, 'x')).toThrow('contracts.refreshSeconds: applies to "source": "registry" only');
  });

  it('accepts every environment cdk.json declares', () => {
    const context = JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')).context;
    const names = Object.keys(context.environments);
    expect(names).toEqual(expect.arrayContaining(['dev', 'prod']));
    for (const name of names) expect(environmentConfig(context.environments, name).name).toBe(name);
    // prod deploys as before; dev tries the registry.
    expect(environmentConfig(context.environments, 'prod').contracts.source).toBe('bundled');
    expect(environmentConfig(context.environments, 'dev').contracts.source).toBe('registry');
  });
});
