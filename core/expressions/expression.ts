/**
 * The one expression language of the facility's formulas: arithmetic over named values (risk
 * formulas over category scores, MAC formulas over the limits engine's variables). A small
 * recursive-descent parser, so a formula is checked when it is saved and evaluated without `eval`
 * or `Function`: nothing a user types ever runs as code.
 */

export type ExpressionNode =
  | { type: 'number'; value: number }
  | { type: 'name'; name: string }
  | { type: 'unary'; op: '-'; arg: ExpressionNode }
  | { type: 'binary'; op: '+' | '-' | '*' | '/' | '^'; left: ExpressionNode; right: ExpressionNode }
  | { type: 'call'; fn: ExpressionFunction; args: ExpressionNode[] };

export const EXPRESSION_FUNCTIONS = {
  min: (...xs: number[]) => Math.min(...xs),
  max: (...xs: number[]) => Math.max(...xs),
  abs: (x: number) => Math.abs(x),
  sqrt: (x: number) => Math.sqrt(x),
  log10: (x: number) => Math.log10(x),
  ln: (x: number) => Math.log(x),
  round: (x: number) => Math.round(x),
} as const;
export type ExpressionFunction = keyof typeof EXPRESSION_FUNCTIONS;

const TOKEN = /\s*(?:(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|([A-Za-z_][A-Za-z0-9_]*)|([-+*/^(),]))/y;

type Token = { kind: 'number' | 'name' | 'op'; text: string; at: number };

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (source.slice(at).trim() !== '') {
    TOKEN.lastIndex = at;
    const match = TOKEN.exec(source);
    if (!match) {
      const pos = at + (source.length - at - source.slice(at).trimStart().length);
      throw new SyntaxError(`unexpected '${source[pos] ?? ''}' at position ${pos + 1}`);
    }
    const [whole, num, name, op] = match;
    const text = num ?? name ?? op ?? '';
    const token = { text, at: at + whole.length - text.length };
    tokens.push({
      kind: num !== undefined ? 'number' : name !== undefined ? 'name' : 'op',
      ...token,
    });
    at += whole.length;
  }
  return tokens;
}

class Parser {
  private index = 0;
  constructor(private readonly tokens: Token[]) {}

  parse(): ExpressionNode {
    if (this.tokens.length === 0) throw new SyntaxError('the formula is empty');
    const node = this.sum();
    const extra = this.tokens[this.index];
    if (extra) throw new SyntaxError(`unexpected '${extra.text}' at position ${extra.at + 1}`);
    return node;
  }

  private peek(): Token | undefined {
    return this.tokens[this.index];
  }

  private take(op: string): boolean {
    const token = this.peek();
    if (token?.kind === 'op' && token.text === op) {
      this.index += 1;
      return true;
    }
    return false;
  }

  private sum(): ExpressionNode {
    let node = this.product();
    for (;;) {
      if (this.take('+')) node = { type: 'binary', op: '+', left: node, right: this.product() };
      else if (this.take('-'))
        node = { type: 'binary', op: '-', left: node, right: this.product() };
      else return node;
    }
  }

  private product(): ExpressionNode {
    let node = this.unary();
    for (;;) {
      if (this.take('*')) node = { type: 'binary', op: '*', left: node, right: this.unary() };
      else if (this.take('/')) node = { type: 'binary', op: '/', left: node, right: this.unary() };
      else return node;
    }
  }

  private unary(): ExpressionNode {
    if (this.take('-')) return { type: 'unary', op: '-', arg: this.unary() };
    if (this.take('+')) return this.unary();
    return this.power();
  }

  // Right-associative, binding tighter than a leading minus on its left: -2^2 = -4, 2^-1 = 0.5.
  private power(): ExpressionNode {
    const base = this.atom();
    return this.take('^') ? { type: 'binary', op: '^', left: base, right: this.unary() } : base;
  }

  private atom(): ExpressionNode {
    const token = this.peek();
    if (!token) throw new SyntaxError('the formula ends too early');
    this.index += 1;
    if (token.kind === 'number') return { type: 'number', value: Number(token.text) };
    if (token.kind === 'name') {
      if (!this.take('(')) return { type: 'name', name: token.text };
      if (!Object.hasOwn(EXPRESSION_FUNCTIONS, token.text))
        throw new SyntaxError(
          `unknown function '${token.text}' (known: ${Object.keys(EXPRESSION_FUNCTIONS).join(', ')})`,
        );
      const args = [this.sum()];
      while (this.take(',')) args.push(this.sum());
      if (!this.take(')'))
        throw new SyntaxError(`')' expected after the arguments of ${token.text}`);
      return { type: 'call', fn: token.text as ExpressionFunction, args };
    }
    if (token.text === '(') {
      const inner = this.sum();
      if (!this.take(')'))
        throw new SyntaxError(`')' expected to close '(' at position ${token.at + 1}`);
      return inner;
    }
    throw new SyntaxError(`unexpected '${token.text}' at position ${token.at + 1}`);
  }
}

/** The formula's tree; throws SyntaxError naming the position of what does not parse. */
export function parseExpression(source: string): ExpressionNode {
  return new Parser(tokenize(source)).parse();
}

/** The problem with a formula's syntax, or undefined when it parses. */
export function expressionSyntaxProblem(source: string): string | undefined {
  try {
    parseExpression(source);
    return undefined;
  } catch (error) {
    return error instanceof SyntaxError ? `Invalid formula: ${error.message}` : String(error);
  }
}

/** The names a formula uses, in the order first seen. */
export function expressionNames(node: ExpressionNode, into = new Set<string>()): Set<string> {
  switch (node.type) {
    case 'number':
      break;
    case 'name':
      into.add(node.name);
      break;
    case 'unary':
      expressionNames(node.arg, into);
      break;
    case 'binary':
      expressionNames(node.left, into);
      expressionNames(node.right, into);
      break;
    case 'call':
      for (const arg of node.args) expressionNames(arg, into);
      break;
  }
  return into;
}

const PRECEDENCE = { '+': 1, '-': 1, '*': 2, '/': 2, '^': 3 } as const;

/**
 * The formula written back as text, with the fewest parentheses that keep its meaning; `name`
 * renders each variable (a derivation puts the values substituted in their place).
 */
export function expressionText(
  node: ExpressionNode,
  name: (variable: string) => string = (variable) => variable,
): string {
  const text = (n: ExpressionNode, outer: number, right = false): string => {
    switch (n.type) {
      case 'number':
        return String(n.value);
      case 'name':
        return name(n.name);
      case 'unary': {
        // A minus binds looser than '^': as the base of a power it needs its parentheses.
        const body = `-${text(n.arg, 3)}`;
        return outer > 3 ? `(${body})` : body;
      }
      case 'call':
        return `${n.fn}(${n.args.map((a) => text(a, 0)).join(', ')})`;
      case 'binary': {
        const own = PRECEDENCE[n.op];
        // '^' groups to the right, the others to the left: a - (b - c) and (a ^ b) ^ c keep theirs.
        const leftOuter = n.op === '^' ? own + 1 : own;
        const rightOuter = n.op === '^' ? own : own + 1;
        const body = `${text(n.left, leftOuter)} ${n.op} ${text(n.right, rightOuter, true)}`;
        return own < outer || (right && own === outer) ? `(${body})` : body;
      }
    }
  };
  return text(node, 0);
}

/**
 * The value of a formula for the given named values. Throws RangeError for a name without a
 * value and for a division by zero, naming the divisor: a formula never answers a silent infinity.
 */
export function evaluateExpression(
  node: ExpressionNode,
  values: Readonly<Record<string, number>>,
): number {
  switch (node.type) {
    case 'number':
      return node.value;
    case 'name': {
      const value = Object.hasOwn(values, node.name) ? values[node.name] : undefined;
      if (value === undefined) throw new RangeError(`no value for '${node.name}'`);
      return value;
    }
    case 'unary':
      return -evaluateExpression(node.arg, values);
    case 'binary': {
      const a = evaluateExpression(node.left, values);
      const b = evaluateExpression(node.right, values);
      switch (node.op) {
        case '+':
          return a + b;
        case '-':
          return a - b;
        case '*':
          return a * b;
        case '/':
          if (b === 0) throw new RangeError(`division by zero: ${expressionText(node.right)} is 0`);
          return a / b;
        case '^':
          return a ** b;
      }
      break;
    }
    case 'call':
      return (EXPRESSION_FUNCTIONS[node.fn] as (...xs: number[]) => number)(
        ...node.args.map((arg) => evaluateExpression(arg, values)),
      );
  }
  throw new Error('unreachable');
}
