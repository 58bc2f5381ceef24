/** What a command may touch of its process: injected so tests run commands in-process. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Whether stderr is a terminal: progress lines are drawn only there. */
  readonly isTTY: boolean;
}

export const EXIT = { ok: 0, violated: 1, cannotProceed: 2 } as const;
