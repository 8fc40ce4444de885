import { z } from 'zod';
import { analysisTypeSchema, hexColorSchema, reportCategorySchema } from './common.js';
import { describedFields } from './json-schema.js';
import { expressedAs } from './refinement-keywords.js';
import { layoutElementTypes, paperSizes } from './vocabulary.js';

export const reportTypeEntrySchema = z.looseObject({
  id: z.uuid(),
  key: z.string().min(1),
  label: z.looseObject({ en: z.string(), es: z.string() }),
  statistics: z.array(z.string()),
  reportCategory: reportCategorySchema,
});
export type ReportTypeEntry = z.infer<typeof reportTypeEntrySchema>;

export const reportTypesCatalogSchema = z.looseObject({
  counting: z.array(reportTypeEntrySchema),
  replanting: z.array(reportTypeEntrySchema),
  path: z.array(reportTypeEntrySchema),
});
export type ReportTypesCatalog = z.infer<typeof reportTypesCatalogSchema>;

export const statisticsCatalogSchema = z.looseObject({
  counting: z.array(z.string()),
  replanting: z.array(z.string()),
  path: z.array(z.string()),
});
export type StatisticsCatalog = z.infer<typeof statisticsCatalogSchema>;

/**
 * What a server accepts is strict (unknown fields are errors); what a client reads is lenient
 * (the real service may send more). Both come from this one factory so they cannot drift.
 */
export type Strictness = 'strict' | 'lenient';
const objectOf = (mode: Strictness) => (mode === 'strict' ? z.strictObject : z.looseObject);

export const paperSizeSchema = z.enum(paperSizes);

const unit = z.number().min(0).max(1);
/** What `unit` accepts: a refinement runs even when a field failed on its own. */
const inUnit = (value: number) => value >= 0 && value <= 1;

/** Resource limits (README, "Resource limits"): what one template may hold. */
export const MAX_TEMPLATE_BYTES = 256 * 1024;
export const MAX_LAYOUT_ELEMENTS = 200;
export const MAX_ELEMENT_PROPERTY_LENGTH = 1024;
/**
 * A free-form element property: any JSON value (a style object too), at most 1,024
 * characters once serialised. Refusing objects would make stored templates that have them
 * impossible to PUT back unchanged.
 */
const freeFormPropertySchema = expressedAs(
  z.unknown().superRefine((value, ctx) => {
    if ((JSON.stringify(value)?.length ?? 0) > MAX_ELEMENT_PROPERTY_LENGTH) {
      ctx.addIssue({ code: 'custom', message: `at most ${MAX_ELEMENT_PROPERTY_LENGTH} characters as JSON` });
    }
  }),
  { maxJsonLength: MAX_ELEMENT_PROPERTY_LENGTH },
);

export function documentPartSchemas(mode: Strictness) {
  const object = objectOf(mode);
  const colorStop = object({ value: z.number(), color: hexColorSchema });
  // At least two stops, values strictly ascending (reported at the stop that breaks the order).
  const colorScale = expressedAs(
    object({ stops: z.array(colorStop).min(2) }).superRefine((scale, ctx) => {
      for (let i = 1; i < scale.stops.length; i++) {
        if (scale.stops[i]!.value <= scale.stops[i - 1]!.value) {
          ctx.addIssue({ code: 'custom', path: ['stops', i, 'value'], message: 'stop values must ascend' });
        }
      }
    }),
    { stopsAscend: true },
  );
  // Element properties other than its box are kept as sent, in both modes; a server accepts
  // only small scalar ones (a client reads whatever a service sends).
  const layoutElement = describedFields(
    expressedAs(
      z
        .object({ type: z.enum(layoutElementTypes), x: unit, y: unit, width: unit, height: unit })
        .catchall(mode === 'strict' ? freeFormPropertySchema : z.unknown())
        .superRefine((element, ctx) => {
          // An issue names only a field that is wrong itself: the box is checked only when both of
          // its numbers are valid, and then the size is named (the position says where it starts;
          // the size is what runs past the edge). A tiny tolerance: 0.1 + 0.9 is 1.0000000000000002.
          if (inUnit(element.x) && inUnit(element.width) && element.x + element.width > 1 + 1e-9) {
            ctx.addIssue({ code: 'custom', path: ['width'], message: 'x + width must not exceed 1' });
          }
          if (inUnit(element.y) && inUnit(element.height) && element.y + element.height > 1 + 1e-9) {
            ctx.addIssue({ code: 'custom', path: ['height'], message: 'y + height must not exceed 1' });
          }
        }),
      { elementFitsPage: true },
    ),
    {
      type: 'What the element draws',
      x: 'Left edge, as a fraction (0 to 1) of the printable width',
      y: 'Top edge, as a fraction (0 to 1) of the printable height',
      width: 'Width, as a fraction of the printable width; x + width is at most 1',
      height: 'Height, as a fraction of the printable height; y + height is at most 1',
    },
  );
  const elements = z.array(layoutElement);
  const layout = object({
    elements: mode === 'strict' ? elements.max(MAX_LAYOUT_ELEMENTS, `at most ${MAX_LAYOUT_ELEMENTS} elements per orientation`) : elements,
  });
  const layouts = expressedAs(
    object({ portrait: layout.optional(), landscape: layout.optional() }).refine(
      (value) => value.portrait !== undefined || value.landscape !== undefined,
      { message: 'needs portrait or landscape' },
    ),
    { anyOf: [{ required: ['portrait'] }, { required: ['landscape'] }] },
  );
  const margins = object({
    top: z.number().min(0),
    right: z.number().min(0),
    bottom: z.number().min(0),
    left: z.number().min(0),
  });
  return { colorStop, colorScale, layoutElement, layout, layouts, margins };
}

const lenientParts = documentPartSchemas('lenient');
export const colorScaleSchema = lenientParts.colorScale;
export type ColorScale = z.infer<typeof colorScaleSchema>;
export type LayoutElement = z.infer<typeof lenientParts.layoutElement>;
export type Layouts = z.infer<typeof lenientParts.layouts>;
export type Margins = z.infer<typeof lenientParts.margins>;

export const vegetationIndexDefaultsSchema = z.looseObject({
  indexNames: z.array(z.string()),
  colorScales: z.record(z.string(), colorScaleSchema),
  accentColors: z.record(z.string(), hexColorSchema),
  layouts: z.looseObject({ portrait: lenientParts.layout, landscape: lenientParts.layout }),
  defaults: z.looseObject({
    paperSize: paperSizeSchema,
    mapResolution: z.number(),
    margins: lenientParts.margins,
    saviL: z.number(),
  }),
  customFormula: z.looseObject({
    allowedBands: z.array(z.string()),
    allowedScalars: z.array(z.string()),
    allowedFunctions: z.array(z.string()),
    rules: z.looseObject({ divisionRequiresEps: z.boolean() }),
  }),
});
export type VegetationIndexDefaults = z.infer<typeof vegetationIndexDefaultsSchema>;

export const CUSTOM_INDEX = 'Custom_Index';

/** Everything the cross-field rules of a template need, read from the three catalogs. */
export interface Catalogs {
  reportTypes: ReportTypesCatalog;
  statistics: StatisticsCatalog;
  vegetationIndexDefaults: VegetationIndexDefaults;
}

export { analysisTypeSchema };
