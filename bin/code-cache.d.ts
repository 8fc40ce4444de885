// What src/ uses of bin/code-cache.js (src/main.ts): a CommonJS file the bundles require by path.
export function endProcess(code: number): void;
export function compileExpression(expression: string, file: string, name: string): unknown;
