import type { z } from 'zod';

export declare const OUT_JS: string;
export declare const OUT_DTS: string;
export declare const OUT_DIR: string;
/** The checks of `contract.checkedSchemas`, each as ajv's standalone module by name; throws on what JSON Schema cannot say. */
export declare function checkModules(contract: {
  z: typeof z;
  checkedSchemas: Record<string, z.ZodType>;
  expressedBy: z.core.$ZodRegistry<{ keywords: Record<string, unknown> }>;
}): Record<string, string>;
/** Every generated file's text by path, made from src/contract/client-schemas.ts. */
export declare function generateResponseChecks(): Promise<Record<string, string>>;
/** Files in the checks' folder that the generator no longer makes. */
export declare function leftOver(files: Record<string, string>): string[];
