import type { CliDeps } from '../../cmdutil/context.js';
import type { Wrap } from '../../cmdutil/action.js';
import { writeData } from '../../iostreams/io.js';
import { bindRun, type OptionsOf, type Parent, type RunF } from '../../cmdutil/verb.js';

const verb = (parent: Parent) =>
  parent
    .command('schema')
    .description("Print the JSON Schema of a template file, for an editor's checks and completion (no service needed)")
    .addHelpText(
      'after',
      '\nExamples:\n  $ reportctl templates schema > .vscode/template.schema.json\n  $ reportctl templates schema | jq \'.properties.analysisType\'',
    );
export type TemplatesSchemaOptions = OptionsOf<typeof verb>;

export function registerTemplatesSchema(
  parent: Parent,
  deps: CliDeps,
  wrap: Wrap,
  runF: RunF<TemplatesSchemaOptions> = () => runTemplatesSchema(deps),
): void {
  bindRun(verb(parent), wrap, runF);
}

export async function runTemplatesSchema(deps: CliDeps): Promise<void> {
  // The contract loads zod: only this verb pays for it.
  const { templateFileJsonSchema } = await import('../../../contract/index.js');
  await writeData(deps.io.stdout, `${JSON.stringify(templateFileJsonSchema(), null, 2)}\n`);
}
