// Lint rule tidemark/no-silent-catch: `.catch(() => {})` (also `.then(ok, () => {})`, `() => undefined`)
// swallows an error; it needs a comment saying why that is right, inside the handler, on its line or on
// the line above. A handler that maps the failure to a value the caller checks (`() => null`) is not
// silent. (Empty `catch {}` blocks are the core rule no-empty's job.)

/** @param {import('estree').Node} fn */
function isSilent(fn) {
  if (fn.type !== 'ArrowFunctionExpression' && fn.type !== 'FunctionExpression') return false;
  const body = fn.body;
  if (body.type === 'BlockStatement') return body.body.length === 0;
  if (body.type === 'Identifier') return body.name === 'undefined';
  if (body.type === 'UnaryExpression') return body.operator === 'void' && body.argument.type === 'Literal';
  return false;
}

/** @type {import('eslint').Rule.RuleModule} */
export const emptyCatchRule = {
  meta: {
    type: 'problem',
    docs: { description: 'An error handler that does nothing must say why in a comment.' },
    messages: { silent: 'This .catch() swallows the error silently: handle or report it, or say in a comment why ignoring it is right.' },
    schema: [],
  },
  create(context) {
    const source = context.sourceCode;
    return {
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || callee.property.type !== 'Identifier') return;
        let handler;
        if (callee.property.name === 'catch') handler = node.arguments[0];
        else if (callee.property.name === 'then') handler = node.arguments[1];
        if (!handler || !isSilent(handler)) return;
        if (source.getCommentsInside(handler).length > 0) return;
        // A comment on the handler's line or the line above the statement that holds it.
        const line = handler.loc.start.line;
        const statementLine = (() => {
          let n = node;
          while (n.parent && !/Statement|Declaration$/.test(n.parent.type)) n = n.parent;
          return (n.parent ?? n).loc.start.line;
        })();
        const explained = source.getAllComments().some((c) => c.loc.end.line === line || c.loc.start.line === line || c.loc.end.line === statementLine - 1 || c.loc.end.line === line - 1);
        if (!explained) context.report({ node: handler, messageId: 'silent' });
      },
    };
  },
};
