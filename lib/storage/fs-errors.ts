/** The `code` of a Node system error (ENOENT, EEXIST …), if it has one. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** A path that names no file: absent, under a non-directory, or a symlink not followed. */
export function isMissing(error: unknown): boolean {
  return ['ENOENT', 'ENOTDIR', 'ELOOP'].includes(errorCode(error) ?? '');
}

/** For lookups where a missing file or directory simply means "no such object". */
export function undefinedIfMissing(error: unknown): undefined {
  if (isMissing(error)) return undefined;
  throw error;
}
