// The Markdown plan `templates diff --format markdown` prints for a pull-request comment:
// pure, a plan in and a string out.
import { describe, expect, it } from 'vitest';
import { escapeMarkdown, fenceFor, markdownPlan, MAX_COMMENT_LENGTH, PLAN_MARKER } from '../../../src/cli/commands/templates/support/markdown-plan.js';
import type { PlanReview, ReviewChange } from '../../../src/cli/commands/templates/support/plan-review.js';
import { templateFileText } from '../../../src/cli/commands/templates/support/folder.js';
import { generalBody } from '../../contract/fixtures.js';

const lines = (...text: string[]) => text.map((line) => `${line}\n`).join('');
/** A plan of these changes, in the order given (the reading order is the caller's). */
const reviewOf = (changes: ReviewChange[], unchanged = 0): PlanReview => ({ changes, unchanged });

describe('markdownPlan', () => {
  it('a summary, then a collapsed section per change with its diff', () => {
    const review = reviewOf(
      [
        { action: 'create', name: 'Alpha', file: 't/alpha.json', after: lines('{', '}') },
        { action: 'replace', name: 'Beta', id: 'id-b', file: 't/beta.json', before: lines('{', '  "x": 1', '}'), after: lines('{', '  "x": 2', '}') },
        { action: 'delete', name: 'Old', id: 'id-o', before: lines('{}') },
      ],
      1,
    );
    expect(markdownPlan(review)).toBe(
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
        '<summary>replace <b>Beta</b> <code>id-b</code> from <code>t/beta.json</code>: 1 change</summary>',
        '',
        '- x&#58; 1 → 2',
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
    expect(markdownPlan(reviewOf([], 1))).toBe(`${PLAN_MARKER}\n### Template plan\n\n**0 to create, 0 to replace, 0 to delete, 1 unchanged**\n`);
  });

  it('escapes names for HTML and Markdown: no tag, no mention, no issue link, no control character', () => {
    expect(escapeMarkdown('<img src=x onerror=alert(1)>')).toBe('&#60;img src=x onerror=alert&#40;1&#41;&#62;');
    expect(escapeMarkdown('*bold* _it_ `code` [a](b) @team #12 :tada: | $x$ & "q" \'s\\')).toBe(
      '&#42;bold&#42; &#95;it&#95; &#96;code&#96; &#91;a&#93;&#40;b&#41; &#64;team &#35;12 &#58;tada&#58; &#124; &#36;x&#36; &#38; &#34;q&#34; &#39;s&#92;',
    );
    expect(escapeMarkdown('a\u001b]0;x\u0007b\nc')).toBe('a&#92;x1b&#93;0;x&#92;x07b c');
    const comment = markdownPlan(reviewOf([{ action: 'create', name: '</summary></details><b>', file: 't/<x>.json', after: lines('{}') }]));
    expect(comment).toContain('<summary>create <b>&#60;/summary&#62;&#60;/details&#62;&#60;b&#62;</b> from <code>t/&#60;x&#62;.json</code></summary>');
    expect(comment.match(/<\/details>/g)).toHaveLength(1);
  });

  it('fences a diff with more backticks than any run in it', () => {
    expect(fenceFor('no ticks')).toBe('```');
    expect(fenceFor('a ``` b')).toBe('````');
    expect(fenceFor('a ``` b ````` c')).toBe('``````');
    const plan = reviewOf([{ action: 'create', name: 'Ticks', file: 't/ticks.json', after: lines('{', '  "text": "```"', '}') }]);
    expect(markdownPlan(plan)).toContain('\n````diff\n@@ -0,0 +1,3 @@\n+{\n+  "text": "```"\n+}\n````\n');
  });

  it('over the limit, cuts the longest diffs first to one length, and says so', () => {
    const numbered = (count: number, prefix: string) => lines(...Array.from({ length: count }, (_, index) => `${prefix} ${index}`.padEnd(40, '.')));
    const plan = reviewOf([
      { action: 'create', name: 'Large', file: 't/a-large.json', after: numbered(1_500, 'large') },
      { action: 'create', name: 'Medium', file: 't/b-medium.json', after: numbered(600, 'medium') },
      { action: 'create', name: 'Small', file: 't/c-small.json', after: numbered(10, 'small') },
    ]);
    const comment = markdownPlan(plan);
    expect(comment.length).toBeLessThanOrEqual(MAX_COMMENT_LENGTH);
    expect(comment).toContain("> Some diffs are cut to fit GitHub's comment limit (65,536 characters), the longest first;");
    const shown = (prefix: string) => comment.split('\n').filter((line) => line.startsWith(`+${prefix} `)).length;
    // 2,110 lines of 42 characters do not fit; the small diff is whole, the two others cut alike.
    expect(shown('small')).toBe(10);
    expect(shown('medium')).toBe(600);
    expect(shown('large')).toBeLessThan(1_500);
    expect(comment).toContain(`*Cut to fit: ${shown('large') + 1} of 1501 lines shown.*`);

    const tight = markdownPlan(plan, { limit: 20_000 });
    expect(tight.length).toBeLessThanOrEqual(20_000);
    expect(tight.split('\n').filter((line) => line.startsWith('+small ')).length).toBe(10);
    expect(tight.match(/\*Cut to fit: /g)).toHaveLength(2);
  });

  it('when the headings alone are too long, leaves the last changes out and says how many', () => {
    const plan = reviewOf(Array.from({ length: 2_000 }, (_, index): ReviewChange => ({ action: 'create', name: `Template ${index}`, file: `t/${String(index).padStart(4, '0')}.json`, after: lines('{}') })));
    const comment = markdownPlan(plan);
    expect(comment.length).toBeLessThanOrEqual(MAX_COMMENT_LENGTH);
    const listed = comment.match(/<details>/g)!.length;
    expect(listed).toBeLessThan(2_000);
    expect(comment).toContain(`… and ${2_000 - listed} more changes, left out to fit one comment.`);
    expect(comment).toContain('<b>Template 0</b>');
  });

  it("lists each page's layout problems after the change, those it brings marked new, and where the pictures are", () => {
    const map = { type: 'map', x: 0.05, y: 0.2, width: 0.9, height: 0.7 };
    const title = { type: 'title', x: 0.05, y: 0.05, width: 0.9, height: 0.1 };
    const before = templateFileText(generalBody({ name: 'Moved', layouts: { portrait: { elements: [title, map] } } }));
    // The title moved down onto the map.
    const after = templateFileText(generalBody({ name: 'Moved', layouts: { portrait: { elements: [{ ...title, y: 0.25 }, map] } } }));
    const comment = markdownPlan(reviewOf([{ action: 'replace', name: 'Moved', id: 'id-m', file: 't/moved.json', before, after }]), { previewsUrl: 'https://github.com/agro/templates/actions/runs/1/artifacts/2' });
    expect(comment).toContain(`Pictures of each page that changes, before and after: <a href="https://github.com/agro/templates/actions/runs/1/artifacts/2">the plan's previews</a> (index.html).`);
    expect(comment).toContain('<summary>replace <b>Moved</b> <code>id-m</code> from <code>t/moved.json</code>: 1 change, 1 layout problem</summary>');
    expect(comment).toContain('\n- layouts.portrait title&#58; y 0.05 → 0.25\n');
    expect(comment).toContain('Layout problems after the change:');
    expect(comment).toContain('\n- portrait&#58; The title at layouts.portrait.elements.0 overlaps the map at layouts.portrait.elements.1. &#40;new&#41;\n');
    // A created template's problems are all its own: none marked new.
    const created = markdownPlan(reviewOf([{ action: 'create', name: 'Moved 2', file: 't/moved-2.json', after }]));
    expect(created).toContain('\n- portrait&#58; The title at layouts.portrait.elements.0 overlaps the map at layouts.portrait.elements.1.\n');
  });

  it('a change whose texts a plan file did not keep is listed without its diff, saying why', () => {
    const comment = markdownPlan(reviewOf([{ action: 'replace', name: 'Huge', id: 'id-h', file: 't/huge.json', before: undefined, after: undefined }]));
    expect(comment).toContain('<summary>replace <b>Huge</b> <code>id-h</code> from <code>t/huge.json</code></summary>');
    expect(comment).toContain('its text is not in the plan file');
    expect(comment).not.toContain('```diff');
  });
});
