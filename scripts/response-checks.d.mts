import type { z } from 'zod';

/** The folder the generator writes, and its two files. */
export declare const OUT_DIR: string;
export declare const OUT_JS: string;
export declare const OUT_DTS: string;
/** The checks of `contract.checkedSchemas` as one module's text (ajv's standalone code), each exported by name; throws on what JSON Schema cannot say. */
export declare function checkModule(contract: {
  z: typeof z;
  checkedSchemas: Record<string, z.ZodType>;
  expressedBy: z.core.$ZodRegistry<{ keywords: Record<string, unknown> }>;
}): string;
/** Every generated file's text by path, made from src/contract/client-schemas.ts. */
export declare function generateResponseChecks(): Promise<Record<string, string>>;
/** Files in the generated folder that the generator does not make. */
export declare function leftOver(files: Record<string, string>): string[];
