import type { Root } from '../../cmdutil/verb.js';
import type { CliDeps } from '../../cmdutil/context.js';
import type { Wrap } from '../../cmdutil/action.js';
import { registerTemplatesApply } from './apply.js';
import { registerTemplatesCreate } from './create.js';
import { registerTemplatesDelete } from './delete.js';
import { registerTemplatesDiff } from './diff.js';
import { registerTemplatesEdit } from './edit.js';
import { registerTemplatesGet } from './get.js';
import { registerTemplatesList } from './list.js';
import { registerTemplatesPresets } from './presets.js';
import { registerTemplatesPull } from './pull.js';
import { registerTemplatesPreview } from './preview.js';
import { registerTemplatesReplace } from './replace.js';
import { registerTemplatesSchema } from './schema.js';
import { registerTemplatesShowPlan } from './show-plan.js';
import { registerTemplatesValidate } from './validate.js';

export function registerTemplatesCommands(program: Root, deps: CliDeps, wrap: Wrap): void {
  const templates = program.command('templates').description('Report templates');
  registerTemplatesList(templates, deps, wrap);
  registerTemplatesGet(templates, deps, wrap);
  registerTemplatesPresets(templates, deps, wrap);
  registerTemplatesCreate(templates, deps, wrap);
  registerTemplatesReplace(templates, deps, wrap);
  registerTemplatesEdit(templates, deps, wrap);
  registerTemplatesDelete(templates, deps, wrap);
  registerTemplatesValidate(templates, deps, wrap);
  registerTemplatesSchema(templates, deps, wrap);
  registerTemplatesPreview(templates, deps, wrap);
  registerTemplatesPull(templates, deps, wrap);
  registerTemplatesDiff(templates, deps, wrap);
  registerTemplatesApply(templates, deps, wrap);
  registerTemplatesShowPlan(templates, deps, wrap);
}
