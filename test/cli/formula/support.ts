// Shared by the formula verb tests: the shape `formula check --json` prints, one object a line.
export interface Report {
  formula: string;
  valid: boolean;
  usesL: boolean;
  errors: { message: string; offset: number; length: number; suggestion?: string }[];
}

export const parseLines = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Report);
