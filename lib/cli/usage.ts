export const VALIDATE_USAGE = 'contract-gate validate --contract <file> <path>... [--format text|json] [--now <ISO-8601>] [--workers N]';
