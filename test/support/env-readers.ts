import { readFileSync } from 'node:fs';
import ts from 'typescript';

/**
 * The lines of `text` that read `process.env` (`process.env.X`, `process.env['X']`,
 * `process['env']`, `const { env } = process`). Read from the syntax tree, not by pattern, so a
 * comment or a string that mentions process.env (the scrubber's examples) is not a read.
 */
export function envReadsIn(text: string, fileName = 'source.ts'): number[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const lines: number[] = [];
  const isProcess = (node: ts.Node) =>
    (ts.isIdentifier(node) && node.text === 'process') ||
    (ts.isPropertyAccessExpression(node) && node.name.text === 'process');
  const visit = (node: ts.Node) => {
    const reads =
      (ts.isPropertyAccessExpression(node) &&
        node.name.text === 'env' &&
        isProcess(node.expression)) ||
      (ts.isElementAccessExpression(node) &&
        isProcess(node.expression) &&
        ts.isStringLiteralLike(node.argumentExpression) &&
        node.argumentExpression.text === 'env') ||
      (ts.isVariableDeclaration(node) &&
        node.initializer !== undefined &&
        isProcess(node.initializer) &&
        ts.isObjectBindingPattern(node.name) &&
        node.name.elements.some((e) => (e.propertyName ?? e.name).getText(source) === 'env'));
    if (reads) lines.push(source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return lines;
}

export function envReadsOf(file: string): number[] {
  return envReadsIn(readFileSync(file, 'utf8'), file);
}
