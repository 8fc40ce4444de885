// The Markdown plan `templates diff --format markdown` prints for a pull-request comment:
// pure, a plan in and a string out.
import { describe, expect, it } from 'vitest';
import { escapeMarkdown, fenceFor, markdownPlan, MAX_COMMENT_LENGTH, PLAN_MARKER } from '../../../src/cli/commands/templates/support/markdown-plan.js';
import type { TemplatePlan } from '../../../src/cli/commands/templates/support/plan.js';
import type { TemplateBody } from '../../../src/contract/index.js';

const body = {} as TemplateBody;
const emptyPlan = (): TemplatePlan => ({ create: [], replace: [], unchanged: [], delete: [], kept: [] });
const lines = (...text: string[]) => text.map((line) => `${line}\n`).join('');

describe('markdownPlan', () => {
  it('a summary, then a collapsed section per change with its diff, files in order then deletions', () => {
    const plan = emptyPlan();
    plan.replace.push({ name: 'Beta', id: 'id-b', file: 't/beta.json', body, before: lines('{', '  "x": 1', '}'), after: lines('{', '  "x": 2', '}') });
    plan.create.push({ name: 'Alpha', file: 't/alpha.json', body, text: lines('{', '}') });
    plan.delete.push({ name: 'Old', id: 'id-o', text: lines('{}') });
    plan.unchanged.push({ name: 'Same', id: 'id-s', file: 't/same.json' });
    expect(markdownPlan(plan)).toBe(
      [
        PLAN_MARKER,
        '### Template plan',
        '',
        '**1 to create, 1 to replace, 1 to delete, 1 unchanged**',
        '',
        '<details>',
        '<summary>create <b>Alpha</b> from <code>t/alpha.json</code></summary>',
        '',
        '```diff',
        '@@ -0,0 +1,2 @@',
        '+{',
        '+}',
        '```',
        '',
        '</details>',
        '',
        '<details>',
        '<summary>replace <b>Beta</b> <code>id-b</code> from <code>t/beta.json</code></summary>',
        '',
        '```diff',
        '@@ -1,3 +1,3 @@',
        ' {',
        '-  "x": 1',
        '+  "x": 2',
        ' }',
        '```',
        '',
        '</details>',
        '',
        '<details>',
        '<summary>delete <b>Old</b> <code>id-o</code> (in no file)</summary>',
        '',
        '```diff',
        '@@ -1 +0,0 @@',
        '-{}',
        '```',
        '',
        '</details>',
        '',
      ].join('\n'),
    );
  });

  it('nothing to change: the summary alone', () => {
    const plan = emptyPlan();
    plan.unchanged.push({ name: 'Same', id: 'id-s', file: 't/same.json' });
    expect(markdownPlan(plan)).toBe(`${PLAN_MARKER}\n### Template plan\n\n**0 to create, 0 to replace, 0 to delete, 1 unchanged**\n`);
  });

  it('escapes names for HTML and Markdown: no tag, no mention, no issue link, no control character', () => {
    expect(escapeMarkdown('<img src=x onerror=alert(1)>')).toBe('&#60;img src=x onerror=alert&#40;1&#41;&#62;');
    expect(escapeMarkdown('*bold* _it_ `code` [a](b) @team #12 :tada: | $x$ & "q" \'s\\')).toBe(
      '&#42;bold&#42; &#95;it&#95; &#96;code&#96; &#91;a&#93;&#40;b&#41; &#64;team &#35;12 &#58;tada&#58; &#124; &#36;x&#36; &#38; &#34;q&#34; &#39;s&#92;',
    );
    expect(escapeMarkdown('a\u001b]0;x\u0007b\nc')).toBe('a&#92;x1b&#93;0;x&#92;x07b c');
    const plan = emptyPlan();
    plan.create.push({ name: '</summary></details><b>', file: 't/<x>.json', body, text: lines('{}') });
    const comment = markdownPlan(plan);
    expect(comment).toContain('<summary>create <b>&#60;/summary&#62;&#60;/details&#62;&#60;b&#62;</b> from <code>t/&#60;x&#62;.json</code></summary>');
    expect(comment.match(/<\/details>/g)).toHaveLength(1);
  });

  it('fences a diff with more backticks than any run in it', () => {
    expect(fenceFor('no ticks')).toBe('```');
    expect(fenceFor('a ``` b')).toBe('````');
    expect(fenceFor('a ``` b ````` c')).toBe('``````');
    const plan = emptyPlan();
    plan.create.push({ name: 'Ticks', file: 't/ticks.json', body, text: lines('{', '  "text": "```"', '}') });
    expect(markdownPlan(plan)).toContain('\n````diff\n@@ -0,0 +1,3 @@\n+{\n+  "text": "```"\n+}\n````\n');
  });

  it('over the limit, cuts the longest diffs first to one length, and says so', () => {
    const plan = emptyPlan();
    const numbered = (count: number, prefix: string) => lines(...Array.from({ length: count }, (_, index) => `${prefix} ${index}`.padEnd(40, '.')));
    plan.create.push({ name: 'Large', file: 't/a-large.json', body, text: numbered(1_500, 'large') });
    plan.create.push({ name: 'Medium', file: 't/b-medium.json', body, text: numbered(600, 'medium') });
    plan.create.push({ name: 'Small', file: 't/c-small.json', body, text: numbered(10, 'small') });
    const comment = markdownPlan(plan);
    expect(comment.length).toBeLessThanOrEqual(MAX_COMMENT_LENGTH);
    expect(comment).toContain("> Some diffs are cut to fit GitHub's comment limit (65,536 characters), the longest first;");
    const shown = (prefix: string) => comment.split('\n').filter((line) => line.startsWith(`+${prefix} `)).length;
    // 2,110 lines of 42 characters do not fit; the small diff is whole, the two others cut alike.
    expect(shown('small')).toBe(10);
    expect(shown('medium')).toBe(600);
    expect(shown('large')).toBeLessThan(1_500);
    expect(comment).toContain(`*Cut to fit: ${shown('large') + 1} of 1501 lines shown.*`);

    const tight = markdownPlan(plan, 20_000);
    expect(tight.length).toBeLessThanOrEqual(20_000);
    expect(tight.split('\n').filter((line) => line.startsWith('+small ')).length).toBe(10);
    expect(tight.match(/\*Cut to fit: /g)).toHaveLength(2);
  });

  it('when the headings alone are too long, leaves the last changes out and says how many', () => {
    const plan = emptyPlan();
    for (let index = 0; index < 2_000; index++) {
      plan.create.push({ name: `Template ${index}`, file: `t/${String(index).padStart(4, '0')}.json`, body, text: lines('{}') });
    }
    const comment = markdownPlan(plan);
    expect(comment.length).toBeLessThanOrEqual(MAX_COMMENT_LENGTH);
    const listed = comment.match(/<details>/g)!.length;
    expect(listed).toBeLessThan(2_000);
    expect(comment).toContain(`… and ${2_000 - listed} more changes, left out to fit one comment.`);
    expect(comment).toContain('<b>Template 0</b>');
  });
});
