// The decisions registry (src/contract/decisions.ts) against the two places a reader meets it:
// the OpenAPI document marks each guess and each rule stricter than the specification where
// it applies, and docs/decisions.md labels each by its id, in the section of its kind.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decisions, decisionSentence, markedNode, type DecisionKind } from '../../src/contract/decisions.js';
import { serviceOpenApiDocument } from '../../src/server/routes/service.js';

const DOCS = readFileSync(join(import.meta.dirname, '../../docs/decisions.md'), 'utf8');

/** The ids docs/decisions.md gives in a section: each bullet starts with its id in bold code. */
function idsIn(heading: string): string[] {
  const section = DOCS.slice(DOCS.indexOf(heading)).split(/\n## /)[0]!;
  return [...section.matchAll(/^- \*\*`([a-z0-9-]+)`\*\*/gm)].map((match) => match[1]!);
}

const ofKind = (kind: DecisionKind) => decisions.filter((decision) => decision.kind === kind).map((decision) => decision.id);

describe('decisions', () => {
  it('are each marked in the OpenAPI document where they apply: an x- entry and a sentence', () => {
    const document = serviceOpenApiDocument();
    for (const decision of decisions) {
      expect(decision.marks.length, decision.id).toBeGreaterThan(0);
      for (const mark of decision.marks) {
        const node = markedNode(document, mark);
        const at = `${decision.id} at ${JSON.stringify(mark)}`;
        expect(node?.['x-reportctl-decisions'], at).toContainEqual({ id: decision.id, kind: decision.kind });
        expect(node?.description, at).toContain(decisionSentence(decision));
      }
    }
  });

  it('are each labelled in docs/decisions.md, in the section of their kind, and the sections name no other', () => {
    expect(idsIn('## Guesses: shapes the specification does not show')).toEqual(ofKind('guess'));
    expect(idsIn('## Extra strictness: what `serve` refuses beyond the specification')).toEqual(ofKind('stricter'));
  });

  it('cover what the issue-51 review found unlabelled', () => {
    const ids = decisions.map((decision) => decision.id);
    for (const id of ['paper-size', 'unique-statistics', 'margins', 'name-length', 'layout-strictness', 'formula-body', 'query-refusals', 'presets-paging']) expect(ids).toContain(id);
  });

  it('mark a guess where clients read it and a rule where they write it', () => {
    const document = serviceOpenApiDocument() as { paths: Record<string, Record<string, { requestBody?: unknown; responses: Record<string, unknown> }>> };
    const post = document.paths['/api/v2/templates']!.post!;
    const get = document.paths['/api/v2/templates/{id}']!.get!;
    const field = (operation: { requestBody?: unknown; responses: Record<string, unknown> }, where: 'request' | '200', name: string) => {
      const content = (where === 'request' ? operation.requestBody : operation.responses[where]) as { content: { 'application/json': { schema: { properties: Record<string, Record<string, unknown>> } } } };
      return content.content['application/json'].schema.properties[name]!;
    };
    expect(field(post, 'request', 'paperSize')['x-reportctl-decisions']).toEqual([{ id: 'paper-size', kind: 'stricter' }]);
    expect(field(get, '200', 'paperSize')['x-reportctl-decisions']).toBeUndefined();
    expect(field(get, '200', 'colorScale')['x-reportctl-decisions']).toEqual([{ id: 'colour-scale', kind: 'guess' }]);
  });
});
