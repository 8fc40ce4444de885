import type { z } from 'zod';

export declare const OUT_JS: string;
export declare const OUT_DTS: string;
/** The checks of `contract.checkedSchemas` as ajv's standalone module; throws on what JSON Schema cannot say. */
export declare function checksModule(contract: {
  z: typeof z;
  checkedSchemas: Record<string, z.ZodType>;
  expressedBy: z.core.$ZodRegistry<{ keywords: Record<string, unknown> }>;
}): string;
/** The committed files' text, made from src/contract/checked.ts. */
export declare function generateResponseChecks(): Promise<{ js: string; dts: string }>;
