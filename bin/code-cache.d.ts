// What src/ uses of bin/code-cache.js: a CommonJS file the bundles require by path (scripts/build/bin-files.mjs).
export function endProcess(code: number): void;
export function compileExpression(expression: string, file: string, name: string): unknown;
export function keptText(name: string): string | null;
export function keepText(name: string, text: string): void;
