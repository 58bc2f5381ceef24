/** A dataset name: it names S3 prefixes. */
export const NAME = /^[a-z][a-z0-9_-]*$/;

/** What is wrong with a dataset name, or undefined when it is one. */
export function datasetNameProblem(name: string): string | undefined {
  return NAME.test(name) ? undefined : `"${name}" is not a dataset name; expected lower case letters, digits, "_" or "-", starting with a letter`;
}
