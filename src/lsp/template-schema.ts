import { templateFileJsonSchema } from '../contract/index.js';

/** A JSON Schema node, as far as the editor features read it. */
export interface SchemaNode {
  description?: string;
  enum?: unknown[];
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
}

let schema: SchemaNode | undefined;

/** `templates schema`'s schema, made once (zod's conversion is not free). */
function fileSchema(): SchemaNode {
  return (schema ??= templateFileJsonSchema() as SchemaNode);
}

/** The schema of the value at `path` (keys and array indices), if the schema describes it. */
export function schemaAt(path: ReadonlyArray<string | number>): SchemaNode | undefined {
  let node: SchemaNode | undefined = fileSchema();
  for (const segment of path) {
    if (!node) return undefined;
    node = typeof segment === 'number' ? node.items : node.properties?.[segment];
  }
  return node;
}
