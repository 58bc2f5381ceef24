/**
 * The one error type the gate throws. Data violations are never thrown: they are results in a
 * report. A GateError means the run itself could not proceed (bad contract, bad arguments, I/O).
 */
const GATE_ERROR_CODES = [
  'contract_invalid', 'bad_arguments', 'path_not_found', 'storage_failed', 'precondition_failed',
  'not_found', 'notify_failed', 'deadline', 'partition_busy', 'unsupported', 'internal',
] as const;

export type GateErrorCode = (typeof GATE_ERROR_CODES)[number];

/** For a code that crossed a thread or a process as text. */
export function isGateErrorCode(code: unknown): code is GateErrorCode {
  return GATE_ERROR_CODES.includes(code as GateErrorCode);
}

export class GateError<Context extends object = Record<string, unknown>> extends Error {
  override readonly name = 'GateError';
  readonly code: GateErrorCode;
  readonly context: Context;

  constructor(code: GateErrorCode, message: string, options: { cause?: unknown; context?: Context } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.context = options.context ?? ({} as Context);
  }
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
