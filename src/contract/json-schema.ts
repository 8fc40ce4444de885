import { z } from 'zod';

/**
 * What each field of an object means, for the JSON Schema the contract publishes (editors show
 * it beside the field). A registry of its own, not `.describe()`: that would make a new schema
 * for each field, and the generated response checks would carry every text.
 */
const fieldDescriptions = z.registry<{ fields: Readonly<Record<string, string>> }>();

/** Registers what `object`'s fields mean, and returns it unchanged. */
export function describedFields<T extends z.ZodObject>(object: T, fields: { readonly [K in keyof T['shape']]?: string }): T {
  fieldDescriptions.add(object, { fields: fields as Record<string, string> });
  return object;
}

/**
 * A contract schema as JSON Schema 2020-12, what the OpenAPI document and `templates schema`
 * publish: `input` as a client writes it, `output` as the service sends it. Refinements are
 * not expressible; the contract states what is (uniqueItems, enums, formats) as metadata.
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  return z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      const described = fieldDescriptions.get(zodSchema);
      const properties = jsonSchema.properties as Record<string, Record<string, unknown>> | undefined;
      if (!described || !properties) return;
      for (const [field, description] of Object.entries(described.fields)) {
        if (properties[field]) properties[field] = { description, ...properties[field] };
      }
    },
  }) as Record<string, unknown>;
}
