import { z } from 'zod';
import { checkFormula } from '../formula/check.js';
import { MAX_FORMULA_LENGTH, type FormulaRules } from '../formula/rules.js';
import {
  CUSTOM_INDEX,
  documentPartSchemas,
  paperSizeSchema,
  type Catalogs,
  type Strictness,
  type VegetationIndexDefaults,
} from './catalogs.js';
import { analysisTypeSchema, reportCategorySchema, timestampSchema } from './common.js';
import { toValidationIssues, type ValidationIssue } from './errors.js';
import { describedFields, jsonSchemaOf } from './json-schema.js';
import { expressedAs } from './refinement-keywords.js';
import { serverOwnedTemplateFields, withoutServerOwned } from './vocabulary.js';

const uniqueStrings = expressedAs(
  z
    .array(z.string().min(1))
    .superRefine((items, ctx) => {
      const seen = new Set<string>();
      items.forEach((item, index) => {
        if (seen.has(item)) ctx.addIssue({ code: 'custom', path: [index], message: `duplicate statistic ${item}` });
        seen.add(item);
      });
    })
    .meta({ uniqueItems: true }),
  { uniqueItems: true },
);

/** Fields a template has only when its reportCategory is vegetation_index. */
const vegetationIndexFields = ['indexName', 'formula', 'colorScale'] as const;

/**
 * The vegetation-index rules JSON Schema can express, for the OpenAPI document (the catalog
 * lookups and the formula check are not expressible; templateCatalogIssues does them all).
 */
const vegetationIndexRules = {
  allOf: [
    {
      if: { properties: { reportCategory: { const: 'vegetation_index' } }, required: ['reportCategory'] },
      then: { required: ['indexName'] },
      else: { not: { anyOf: vegetationIndexFields.map((field) => ({ required: [field] })) } },
    },
    {
      if: { properties: { indexName: { const: CUSTOM_INDEX } }, required: ['indexName'] },
      then: { required: ['formula'] },
      else: { not: { required: ['formula'] } },
    },
  ],
};

/** No C0 or C1 control characters or DEL: a name is shown in terminals and tables. */
// eslint-disable-next-line no-control-regex
const WITHOUT_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f-\u009f]*$/;
const nameSchema = z.string().min(1).max(200);
/** What a server stores is refused with control characters; what a client reads is shown escaped. */
const strictNameSchema = nameSchema.regex(WITHOUT_CONTROL_CHARACTERS, 'must not contain control characters');

function templateFields(mode: Strictness) {
  const parts = documentPartSchemas(mode);
  return {
    name: mode === 'strict' ? strictNameSchema : nameSchema,
    analysisType: analysisTypeSchema,
    reportType: z.string().min(1),
    // Always a catalog entry's id, which is a UUID; anything else is refused as not in the catalog.
    reportTypeId: z.string().min(1).meta({ format: 'uuid' }),
    reportCategory: reportCategorySchema,
    selectedStatistics: uniqueStrings.optional(),
    layouts: parts.layouts.optional(),
    paperSize: paperSizeSchema.optional(),
    mapResolution: z.number().min(72).max(1200).optional(),
    margins: parts.margins.optional(),
    saviL: z.number().min(0).max(1).optional(),
    indexName: z.string().min(1).optional(),
    formula: z.string().max(MAX_FORMULA_LENGTH).optional(),
    colorScale: parts.colorScale.optional(),
  };
}


/** What each field means: shown by editors (`templates schema`) and in the OpenAPI document. */
const templateFieldDescriptions = {
  name: "The template's name, unique in the account; `templates pull` names its file after it",
  analysisType: 'The analysis the report is made from',
  reportType: "A report-type catalog entry's key for this analysisType (`reportctl catalogs report-types`)",
  reportTypeId: "The same catalog entry's id",
  reportCategory: "The same catalog entry's reportCategory",
  selectedStatistics: "Statistics to show, each from the analysisType's catalog (`reportctl catalogs statistics`)",
  layouts: "The page's elements per orientation; the catalog's default layouts when left out",
  paperSize: 'Paper size; the catalog default (letter) when left out',
  mapResolution: 'Map resolution in dots per inch, a JSON number; the catalog default (150) when left out',
  margins: 'Page margins in centimetres (top, right, bottom, left); the catalog default when left out',
  saviL: 'The soil factor L of SAVI, from 0 to 1; needed when the formula uses L',
  indexName: 'The vegetation index (NDVI, SAVI, Custom_Index …); only with reportCategory vegetation_index',
  formula: 'The Custom_Index formula, as `reportctl formula check` reads it; only with indexName Custom_Index',
  colorScale: "The index map's colour stops, their values ascending; the catalog's scale for indexName when left out",
} as const;

/** What POST and PUT accept: unknown top-level fields are errors. */
export const templateBodySchema = describedFields(
  z
    .strictObject({
      ...templateFields('strict'),
      id: z.unknown().optional(),
      userId: z.unknown().optional(),
      createdAt: z.unknown().optional(),
      updatedAt: z.unknown().optional(),
    })
    .meta(vegetationIndexRules),
  templateFieldDescriptions,
);
export type TemplateBodyInput = z.input<typeof templateBodySchema>;

/**
 * The JSON Schema of a template file (`reportctl templates schema`): the POST body without the
 * server-owned fields, for an editor to check and complete. What the service's catalogs
 * decide (reportType, statistics, index names) is text, described.
 */
export function templateFileJsonSchema(): Record<string, unknown> {
  const file = templateBodySchema.omit({ id: true, userId: true, createdAt: true, updatedAt: true }).meta(vegetationIndexRules);
  const { $schema, ...rest } = jsonSchemaOf(describedFields(file, templateFieldDescriptions), 'input');
  return { $schema, title: 'reportctl template file', description: 'One report template, as POST /api/v2/templates takes it', ...rest };
}
export type TemplateBody = Omit<z.infer<typeof templateBodySchema>, (typeof serverOwnedTemplateFields)[number]>;

const storedTemplateShape = {
  ...templateFields('lenient'),
  id: z.string(),
  userId: z.string(),
  selectedStatistics: z.array(z.string()).meta({ uniqueItems: true }),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
};

/**
 * A stored template as a client reads it (lenient: unknown fields pass through, and fields the
 * service fills in may be missing). The document promises what this service sends: every
 * field but the vegetation-index ones and saviL, which is kept only when sent.
 */
export const templateSchema = z.looseObject(storedTemplateShape).meta({
  required: Object.keys(storedTemplateShape).filter(
    (field) => field !== 'saviL' && !(vegetationIndexFields as readonly string[]).includes(field),
  ),
  ...vegetationIndexRules,
});
export type Template = z.infer<typeof templateSchema>;

/** The body without the server-owned fields a caller may have left in it (ownership and timestamps are never taken from a request). */
export function withoutServerOwnedFields(body: z.infer<typeof templateBodySchema> | TemplateBody): TemplateBody {
  return withoutServerOwned(body) as TemplateBody;
}

/** `value` with every object's keys in `schema`'s order; keys the schema does not name follow, as they were. */
function inSchemaOrder(value: unknown, schema: z.ZodType): unknown {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) return inSchemaOrder(value, schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodArray && Array.isArray(value)) return value.map((item: unknown) => inSchemaOrder(item, schema.element as z.ZodType));
  if (!(schema instanceof z.ZodObject) || value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const fields = value as Record<string, unknown>;
  const shape = schema.shape as Record<string, z.ZodType>;
  const ordered: Record<string, unknown> = {};
  for (const key of Object.keys(shape)) if (Object.hasOwn(fields, key)) ordered[key] = inSchemaOrder(fields[key], shape[key]!);
  for (const key of Object.keys(fields)) if (!Object.hasOwn(shape, key)) ordered[key] = fields[key];
  return ordered;
}

/**
 * A template as POST accepts it, for a file under version control: only the body's fields (no
 * server-owned or unknown ones), every object's keys in the contract's order, so one template
 * always serialises to the same bytes whatever order a service or an editor left it in.
 */
export function templateBodyInContractOrder(document: object): Record<string, unknown> {
  const fields = document as Record<string, unknown>;
  const known = Object.keys(templateBodySchema.shape).filter((key) => !(serverOwnedTemplateFields as readonly string[]).includes(key));
  const body = Object.fromEntries(known.filter((key) => Object.hasOwn(fields, key)).map((key) => [key, fields[key]]));
  return inSchemaOrder(body, templateBodySchema) as Record<string, unknown>;
}

/** The formula rules a catalog publishes, in the formula engine's terms. */
export function formulaRulesOf(defaults: VegetationIndexDefaults): FormulaRules {
  const custom = defaults.customFormula;
  return {
    allowedBands: custom.allowedBands,
    allowedScalars: custom.allowedScalars,
    allowedFunctions: custom.allowedFunctions,
    divisionRequiresEps: custom.rules.divisionRequiresEps,
  };
}

/**
 * The rules that need the catalogs, each reported at the field that breaks it. Server and
 * client run this very function, so a local check agrees with the service.
 */
export function templateCatalogIssues(body: TemplateBody, catalogs: Catalogs): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const entry = catalogs.reportTypes[body.analysisType].find((candidate) => candidate.key === body.reportType);
  if (!entry) {
    issues.push({ path: 'reportType', message: 'Invalid reportType' });
  } else {
    if (entry.id !== body.reportTypeId) issues.push({ path: 'reportTypeId', message: 'Invalid reportTypeId' });
    if (entry.reportCategory !== body.reportCategory) {
      issues.push({ path: 'reportCategory', message: 'Invalid reportCategory' });
    }
  }
  const allowedStatistics = new Set(catalogs.statistics[body.analysisType]);
  (body.selectedStatistics ?? []).forEach((statistic, index) => {
    if (!allowedStatistics.has(statistic)) {
      issues.push({ path: `selectedStatistics.${index}`, message: `Invalid selectedStatistics.${index}` });
    }
  });

  if (body.reportCategory !== 'vegetation_index') {
    for (const field of vegetationIndexFields) {
      if (body[field] !== undefined) {
        issues.push({ path: field, message: `${field} is only allowed when reportCategory is vegetation_index` });
      }
    }
    return issues;
  }

  const defaults = catalogs.vegetationIndexDefaults;
  if (body.indexName === undefined) {
    issues.push({ path: 'indexName', message: 'indexName is required when reportCategory is vegetation_index' });
  } else if (!defaults.indexNames.includes(body.indexName)) {
    issues.push({ path: 'indexName', message: 'Invalid indexName' });
  }
  if (body.indexName === CUSTOM_INDEX) {
    if (body.formula === undefined) {
      issues.push({ path: 'formula', message: `formula is required when indexName is ${CUSTOM_INDEX}` });
    } else {
      const check = checkFormula(body.formula, formulaRulesOf(defaults));
      for (const error of check.errors) {
        issues.push({ path: 'formula', message: `formula: ${error.message} (at offset ${error.offset})` });
      }
      if (check.usesL && body.saviL === undefined) {
        issues.push({ path: 'saviL', message: 'saviL is required when the formula uses L' });
      }
    }
  } else if (body.formula !== undefined) {
    issues.push({ path: 'formula', message: `formula is only allowed when indexName is ${CUSTOM_INDEX}` });
  }
  return issues;
}

/** The fields the catalog rules cannot do without: they key the catalogs and pick the rules. */
const CATALOG_KEYS = ['analysisType', 'reportCategory'];

/**
 * The catalog rules a body the schema refused can still be checked against, so one run tells
 * of a misspelt reportType beside a bad margin. The fields the schema refused are left out
 * (their issue stands), and nothing is added at a path already reported. None when the body
 * is not an object or its analysisType or reportCategory is refused.
 */
export function catalogIssuesBeside(body: unknown, schemaIssues: readonly ValidationIssue[], catalogs: Catalogs): ValidationIssue[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return [];
  const refused = new Set(schemaIssues.map((issue) => issue.path.split('.')[0]!));
  if (refused.has('') || CATALOG_KEYS.some((field) => refused.has(field))) return [];
  const rest = Object.fromEntries(Object.entries(body).filter(([field]) => !refused.has(field))) as TemplateBody;
  return templateCatalogIssues(rest, catalogs).filter((issue) => !refused.has(issue.path.split('.')[0]!));
}

/** A complete template document: what the body left out is back to the catalog's default. */
export function applyTemplateDefaults(body: TemplateBody, defaults: VegetationIndexDefaults): TemplateBody {
  const filled: TemplateBody = {
    ...body,
    selectedStatistics: body.selectedStatistics ?? [],
    layouts: body.layouts ?? structuredClone(defaults.layouts),
    paperSize: body.paperSize ?? defaults.defaults.paperSize,
    mapResolution: body.mapResolution ?? defaults.defaults.mapResolution,
    margins: body.margins ?? { ...defaults.defaults.margins },
  };
  if (body.reportCategory === 'vegetation_index' && body.indexName !== undefined && body.colorScale === undefined) {
    const scale = defaults.colorScales[body.indexName];
    if (scale) filled.colorScale = structuredClone(scale);
  }
  return filled;
}

export type TemplateValidation = { success: true; template: TemplateBody } | { success: false; issues: ValidationIssue[] };

/**
 * The whole check a template body goes through before it is stored: the strict schema, then
 * the rules that need the catalogs, then the catalog's defaults. The server's POST and PUT,
 * the demo seed and the CLI's local `templates validate` all call this.
 */
export function validateTemplateBody(body: unknown, catalogs: Catalogs): TemplateValidation {
  // reportInput lets the issue mapper tell a missing field from a wrongly typed one.
  const parsed = templateBodySchema.safeParse(body, { reportInput: true });
  if (!parsed.success) {
    const issues = toValidationIssues(parsed.error);
    return { success: false, issues: [...issues, ...catalogIssuesBeside(body, issues, catalogs)] };
  }
  const template = withoutServerOwnedFields(parsed.data);
  const issues = templateCatalogIssues(template, catalogs);
  if (issues.length > 0) return { success: false, issues };
  return { success: true, template: applyTemplateDefaults(template, catalogs.vegetationIndexDefaults) };
}
