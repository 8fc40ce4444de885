import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';

/** Where something is in a document's text: UTF-16 offsets, as editors and JS strings count. */
export interface Span {
  offset: number;
  length: number;
}

export interface ParsedText {
  root: Node | undefined;
  /** The first syntax error, in the words `templates validate` uses after `not valid JSON: `. */
  syntax?: Span & { reason: string };
}

/** A template file's text as a tree with offsets; strict JSON (no comments, no trailing commas). */
export function parseJsonText(text: string): ParsedText {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (!first) return { root };
  const reason = printParseErrorCode(first.error).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return { root, syntax: { offset: first.offset, length: Math.max(first.length, 1), reason } };
}

/** The property node of `key` in an object node. */
function propertyOf(object: Node, key: string): Node | undefined {
  return object.children?.find((property) => property.children?.[0]?.value === key);
}

/**
 * The node an issue path names (`layouts.portrait.elements.0.x`), or the deepest one that
 * exists on the way, with the property node when the last step was an object's key. A key
 * holding dots is matched whole before it is split.
 */
export function nodeAtPath(root: Node, path: string): { node: Node; property?: Node; complete: boolean } {
  let node = root;
  let property: Node | undefined;
  const segments = path === '' ? [] : path.split('.');
  for (let at = 0; at < segments.length; ) {
    if (node.type === 'array') {
      const item = node.children?.[Number(segments[at])];
      if (!item || !/^\d+$/.test(segments[at]!)) return { node, complete: false };
      node = item;
      property = undefined;
      at += 1;
      continue;
    }
    if (node.type !== 'object') return { node, complete: false };
    let found: Node | undefined;
    let taken = 0;
    for (let end = segments.length; end > at && !found; end--) {
      found = propertyOf(node, segments.slice(at, end).join('.'));
      taken = end - at;
    }
    if (!found?.children?.[1]) return { node, complete: false };
    property = found;
    node = found.children[1];
    at += taken;
  }
  return { node, ...(property ? { property } : {}), complete: true };
}

/**
 * Where an issue at `path` is shown: the key of an unknown or badly named field, the value
 * of any other, and for a field that is missing the `{` of the object that lacks it.
 */
export function spanOfPath(root: Node, path: string, atKey = false): Span {
  const { node, property, complete } = nodeAtPath(root, path);
  if (!complete) return { offset: node.offset, length: 1 };
  const key = property?.children?.[0];
  if (atKey && key) return { offset: key.offset, length: key.length };
  if (path === '') return { offset: node.offset, length: 1 };
  return { offset: node.offset, length: node.length };
}

/**
 * The offset in the text of the character at `index` of a string node's value: escapes such
 * as `\"` and `\u0041` are one character of the value and several of the text.
 */
export function textOffsetInString(text: string, stringNode: Node, index: number): number {
  let raw = stringNode.offset + 1;
  const end = stringNode.offset + stringNode.length - 1;
  for (let decoded = 0; decoded < index && raw < end; decoded++) {
    raw += text.charCodeAt(raw) === 0x5c ? (text[raw + 1] === 'u' ? 6 : 2) : 1;
  }
  return Math.min(raw, end);
}

/** A span of a string node's value (`offset`, `length` in the value) as a span of the text. */
export function spanInString(text: string, stringNode: Node, inValue: Span): Span {
  const start = textOffsetInString(text, stringNode, inValue.offset);
  const end = textOffsetInString(text, stringNode, inValue.offset + inValue.length);
  return { offset: start, length: Math.max(end - start, 1) };
}
