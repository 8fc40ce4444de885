/**
 * Compact JSON text indented as jq indents it (two spaces, `"key": value`, `[]` and `{}` kept
 * short), without parsing it: numbers keep jq's digits, and a value nested any depth takes no
 * stack. The text must be JSON, as jq prints it.
 */

/** The next character that is not part of a string or a number: where the layout changes. */
const STRUCTURE = /["{}[\],:]/g;
/** A JSON string from its opening quote. */
const STRING = /"(?:[^"\\]|\\.)*"/y;

export function indentJson(compact: string): string {
  const parts: string[] = [];
  const indents: string[] = [];
  const indent = (depth: number) => (indents[depth] ??= `\n${'  '.repeat(depth)}`);
  let depth = 0;
  let at = 0;
  for (;;) {
    STRUCTURE.lastIndex = at;
    const found = STRUCTURE.exec(compact);
    if (found === null) break;
    const char = found[0];
    let next = found.index + 1;
    parts.push(compact.slice(at, found.index));
    if (char === '"') {
      STRING.lastIndex = found.index;
      if (!STRING.test(compact)) throw new Error('indentJson: an unterminated string');
      next = STRING.lastIndex;
      parts.push(compact.slice(found.index, next));
    } else if ((char === '{' || char === '[') && compact[next] === (char === '{' ? '}' : ']')) {
      parts.push(char, compact[next]!);
      next += 1;
    } else if (char === '{' || char === '[') {
      depth += 1;
      parts.push(char, indent(depth));
    } else if (char === '}' || char === ']') {
      depth -= 1;
      parts.push(indent(depth), char);
    } else {
      parts.push(char === ',' ? `,${indent(depth)}` : ': ');
    }
    at = next;
  }
  parts.push(compact.slice(at));
  return parts.join('');
}
