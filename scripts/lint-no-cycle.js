// import-x/no-cycle, counting type imports. The rule has no option for that: it skips
// `import type` both where it starts and as it walks the graph. Here it sees every import as
// a value import: the file being linted through a copy of each `import type` node, and the
// files it walks through a parser that drops the `type` marks. docs/development.md (layout): no import cycles,
// type imports included.
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const TYPE_KINDS = new Set(['type', 'typeof']);

/** The same node as a value import or export (a copy: the linted file's AST is shared). */
function asValue(node) {
  return {
    ...node,
    ...(TYPE_KINDS.has(node.importKind) ? { importKind: 'value' } : {}),
    ...(TYPE_KINDS.has(node.exportKind) ? { exportKind: 'value' } : {}),
    ...(node.specifiers ? { specifiers: node.specifiers.map(asValue) } : {}),
  };
}

/** typescript-eslint's parser, with every top-level import and re-export made a value one. */
const typeBlindParser = {
  meta: { name: 'typescript-eslint-parser-counting-type-imports' },
  parseForESLint(code, options) {
    const result = tseslint.parser.parseForESLint(code, options);
    // A fresh AST of a file walked, seen only by import-x: changed in place.
    result.ast.body = result.ast.body.map((statement) =>
      /^(Import|ExportNamed|ExportAll)Declaration$/.test(statement.type) ? asValue(statement) : statement,
    );
    return result;
  },
};

const noCycle = importX.rules['no-cycle'];

export const noCycleCountingTypes = {
  meta: { ...noCycle.meta, docs: { ...noCycle.meta.docs, description: `${noCycle.meta.docs.description} (type imports counted)` } },
  create(context) {
    const walking = Object.create(context, {
      languageOptions: { value: { ...context.languageOptions, parser: typeBlindParser } },
    });
    const listeners = noCycle.create(walking);
    const onImport = listeners.ImportDeclaration;
    return onImport ? { ...listeners, ImportDeclaration: (node) => onImport(asValue(node)) } : listeners;
  },
};
