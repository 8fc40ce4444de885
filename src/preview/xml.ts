// Characters XML 1.0 forbids even escaped (C0 controls but tab, newline and return; lone
// surrogates; U+FFFE and U+FFFF): a name read from a lenient service may carry them.
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe in XML content and in attribute values. */
export function escapeXml(text: string): string {
  return text.replace(NOT_XML, '\ufffd').replace(/[&<>"']/g, (character) => ENTITIES[character]!);
}

/** Millimetres to two decimals: short, stable output. */
export function num(value: number): string {
  return String(Math.round(value * 100) / 100);
}

/** FNV-1a: a short stable id for what a document defines, so two SVGs inlined in one page share an id only when they define the same thing. */
export function contentId(prefix: string, content: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < content.length; i++) {
    hash ^= content.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return `${prefix}-${(hash >>> 0).toString(36)}`;
}
