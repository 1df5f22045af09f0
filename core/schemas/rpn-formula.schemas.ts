/**
 * Risk formulas (rpn_formulas) are arithmetic over named values: the facility's variables and
 * the variables of its risk categories, e.g. `severity * occurrence * detectability` (FMEA RPN,
 * ICH Q9), in the facility's one expression language (core/expressions/expression.ts).
 */
import {
  EXPRESSION_FUNCTIONS,
  evaluateExpression,
  expressionNames,
  expressionSyntaxProblem,
  parseExpression,
} from '../expressions/expression.ts';

/** The problem with a formula's syntax, or undefined when it parses (a field check). */
export function rpnExpressionProblem(expression: string): string | undefined {
  return expressionSyntaxProblem(expression);
}

/** The names a formula uses, in the order first seen. */
export function rpnExpressionNames(expression: string): string[] {
  return [...expressionNames(parseExpression(expression))];
}

/** The value of a formula for the given named values; throws RangeError for a missing name. */
export function evaluateRpnExpression(
  expression: string,
  values: Readonly<Record<string, number>>,
): number {
  return rpnEvaluator(expression)(values);
}

/**
 * A formula parsed once and evaluated for many sets of values (a ranking's every product), as
 * evaluateRpnExpression each time; a formula that does not parse throws its error at each call.
 */
export function rpnEvaluator(
  expression: string,
): (values: Readonly<Record<string, number>>) => number {
  let tree: ReturnType<typeof parseExpression>;
  try {
    tree = parseExpression(expression);
  } catch (error) {
    return () => {
      throw error;
    };
  }
  return (values) => evaluateExpression(tree, values);
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A name a formula can use: letters, digits and underscores, not starting with a digit. */
export function identifierProblem(value: string): string | undefined {
  if (!IDENTIFIER.test(value))
    return 'must start with a letter and hold only letters, digits and underscores';
  if (Object.hasOwn(EXPRESSION_FUNCTIONS, value)) return `'${value}' is the name of a function`;
  return undefined;
}
