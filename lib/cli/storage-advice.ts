import { endpointAnswers, environmentEndpoint, isLoopback, storageProblem, type StorageProblem } from '../storage/storage-problem.js';
import { COMMAND_HELP, type CommandName } from './usage.js';

/** The endpoint the environment names (AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL), and which variable does. */
type Configured = ReturnType<typeof environmentEndpoint>;

/** What the failed invocation was: the advice repeats it with the fix in front. */
export interface FailedCommand {
  readonly name: CommandName;
  readonly args: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * The message for a run stopped by storage: what to fix first, then the failure itself. A dead
 * endpoint comes before anything about region, credentials or IAM, which cannot be the problem
 * while nothing answers; undefined when the failure is no storage problem.
 */
export async function adviseStorageFailure(error: unknown, command: FailedCommand): Promise<string | undefined> {
  const problem = storageProblem(error);
  if (!problem) return undefined;
  const failure = `  (${error instanceof Error ? error.message : String(error)})`;
  const env = command.env ?? process.env;
  const configured = environmentEndpoint(env);
  if (problem.kind === 'unreachable') return `${nothingAnswers(problem.address ?? configured?.url ?? 'the endpoint', configured, command)}\n${failure}`;
  // The SDK settles region and credentials before it connects: a dead endpoint would hide behind them.
  const beforeConnecting = problem.kind === 'no_region' || problem.kind === 'no_credentials';
  if (configured && beforeConnecting && !(await endpointAnswers(configured.url))) {
    return `${nothingAnswers(configured.url, configured, command)}\n  once it answers: ${firstLine(problem, command, configured)}\n${failure}`;
  }
  return `${advice(problem, command, configured)}\n${failure}`;
}

function nothingAnswers(where: string, configured: Configured, command: FailedCommand): string {
  const address = hostAndPort(where);
  const option = optionValue(command.args, '--endpoint');
  const source = option !== undefined && hostAndPort(option) === address ? '--endpoint' : configured && hostAndPort(configured.url) === address ? configured.variable : undefined;
  const head = `nothing answers at ${address}${source === undefined ? '' : ` (${source} names it)`}`;
  if (!isLoopback(where.includes('://') ? where : `http://${where}`)) return `${head}: check the endpoint's address and that its server is up`;
  const endpointOption = 'endpoint' in COMMAND_HELP[command.name].options ? ' and pass --endpoint with the address it prints' : '';
  return `${head}: is \`contract-gate serve\` running? Start it in another terminal (npx contract-gate serve)${endpointOption}, then run this again`;
}

function advice(problem: StorageProblem, command: FailedCommand, configured: Configured): string {
  const first = firstLine(problem, command, configured);
  if (problem.kind === 'no_region') return `${first}\n  or set "region = eu-central-1" under [default] (or your AWS_PROFILE's section) in ~/.aws/config`;
  return first;
}

function firstLine(problem: StorageProblem, command: FailedCommand, configured: Configured): string {
  const again = (prefix: string) => `  ${prefix} ${commandLine(command)}`;
  switch (problem.kind) {
    case 'no_region':
      return `no AWS region is configured, so the AWS SDK cannot send the request ("Region is missing"); set AWS_REGION and run the command again:\n${again('AWS_REGION=eu-central-1')}`;
    case 'no_credentials':
      return configured && isLoopback(configured.url)
        ? `no AWS credentials found; the local serve at ${configured.url} (${configured.variable}) takes any key:\n${again('AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local')}`
        : `no AWS credentials found ("${problem.detail}"): name a profile (AWS_PROFILE, after \`aws configure\` or \`aws sso login\`) or set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, and run the command again:\n${again('AWS_PROFILE=<profile>')}`;
    case 'access_denied':
      return `S3 refused the request (${problem.detail}): the identity in use (\`aws sts get-caller-identity\` shows which) lacks a grant for it, or its keys are wrong or expired`;
    case 'no_bucket': {
      const endpoint = optionValue(command.args, '--endpoint') ?? configured?.url;
      const local = endpoint !== undefined && isLoopback(endpoint) ? ` (a local serve keeps one bucket: "lake", or the one its --bucket names)` : '';
      return `no such bucket${endpoint === undefined ? '' : ` at ${endpoint}`} (${problem.detail}): check the bucket name${local}`;
    }
    case 'unreachable':
      return `nothing answers (${problem.detail})`;
  }
}

function hostAndPort(url: string): string {
  return url.replace(/^[a-z]+:\/\//i, '').replace(/\/.*$/s, '');
}

/** `--name value` or `--name=value`, read loosely: only to say where an address came from. */
function optionValue(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(name);
  if (at !== -1) return args[at + 1];
  return args.find((arg) => arg.startsWith(`${name}=`))?.slice(name.length + 1);
}

/** The invocation as a shell would take it back. */
function commandLine(command: FailedCommand): string {
  return ['contract-gate', command.name, ...command.args].map(shellWord).join(' ');
}

function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
