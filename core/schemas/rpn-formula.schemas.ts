/**
 * Risk formulas (rpn_formulas) are arithmetic over named values: the facility's variables and
 * the variables of its risk categories, e.g. `severity * occurrence * detectability` (FMEA RPN,
 * ICH Q9). This is a small recursive-descent parser, so a formula is checked when it is saved
 * and evaluated without `eval`.
 */

type Node =
  | { type: 'number'; value: number }
  | { type: 'name'; name: string }
  | { type: 'unary'; op: '-'; arg: Node }
  | { type: 'binary'; op: '+' | '-' | '*' | '/' | '^'; left: Node; right: Node }
  | { type: 'call'; fn: RpnFunction; args: Node[] };

const FUNCTIONS = {
  min: (...xs: number[]) => Math.min(...xs),
  max: (...xs: number[]) => Math.max(...xs),
  abs: (x: number) => Math.abs(x),
  sqrt: (x: number) => Math.sqrt(x),
  log10: (x: number) => Math.log10(x),
  ln: (x: number) => Math.log(x),
  round: (x: number) => Math.round(x),
} as const;
type RpnFunction = keyof typeof FUNCTIONS;

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

  parse(): Node {
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

  private sum(): Node {
    let node = this.product();
    for (;;) {
      if (this.take('+')) node = { type: 'binary', op: '+', left: node, right: this.product() };
      else if (this.take('-'))
        node = { type: 'binary', op: '-', left: node, right: this.product() };
      else return node;
    }
  }

  private product(): Node {
    let node = this.power();
    for (;;) {
      if (this.take('*')) node = { type: 'binary', op: '*', left: node, right: this.power() };
      else if (this.take('/')) node = { type: 'binary', op: '/', left: node, right: this.power() };
      else return node;
    }
  }

  // Right-associative, binding tighter than a leading minus on its left: -2^2 = -4.
  private power(): Node {
    const base = this.unary();
    return this.take('^') ? { type: 'binary', op: '^', left: base, right: this.power() } : base;
  }

  private unary(): Node {
    if (this.take('-')) return { type: 'unary', op: '-', arg: this.unary() };
    if (this.take('+')) return this.unary();
    return this.atom();
  }

  private atom(): Node {
    const token = this.peek();
    if (!token) throw new SyntaxError('the formula ends too early');
    this.index += 1;
    if (token.kind === 'number') return { type: 'number', value: Number(token.text) };
    if (token.kind === 'name') {
      if (!this.take('(')) return { type: 'name', name: token.text };
      if (!(token.text in FUNCTIONS))
        throw new SyntaxError(
          `unknown function '${token.text}' (known: ${Object.keys(FUNCTIONS).join(', ')})`,
        );
      const args = [this.sum()];
      while (this.take(',')) args.push(this.sum());
      if (!this.take(')'))
        throw new SyntaxError(`')' expected after the arguments of ${token.text}`);
      return { type: 'call', fn: token.text as RpnFunction, args };
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

function namesOf(node: Node, into: Set<string>): Set<string> {
  switch (node.type) {
    case 'number':
      break;
    case 'name':
      into.add(node.name);
      break;
    case 'unary':
      namesOf(node.arg, into);
      break;
    case 'binary':
      namesOf(node.left, into);
      namesOf(node.right, into);
      break;
    case 'call':
      for (const arg of node.args) namesOf(arg, into);
      break;
  }
  return into;
}

function evaluate(node: Node, values: Readonly<Record<string, number>>): number {
  switch (node.type) {
    case 'number':
      return node.value;
    case 'name': {
      const value = values[node.name];
      if (value === undefined) throw new RangeError(`no value for '${node.name}'`);
      return value;
    }
    case 'unary':
      return -evaluate(node.arg, values);
    case 'binary': {
      const a = evaluate(node.left, values);
      const b = evaluate(node.right, values);
      switch (node.op) {
        case '+':
          return a + b;
        case '-':
          return a - b;
        case '*':
          return a * b;
        case '/':
          return a / b;
        case '^':
          return a ** b;
      }
      break;
    }
    case 'call':
      return (FUNCTIONS[node.fn] as (...xs: number[]) => number)(
        ...node.args.map((arg) => evaluate(arg, values)),
      );
  }
  throw new Error('unreachable');
}

/** The problem with a formula's syntax, or undefined when it parses (a field check). */
export function rpnExpressionProblem(expression: string): string | undefined {
  try {
    new Parser(tokenize(expression)).parse();
    return undefined;
  } catch (error) {
    return error instanceof SyntaxError ? `Invalid formula: ${error.message}` : String(error);
  }
}

/** The names a formula uses, in the order first seen. */
export function rpnExpressionNames(expression: string): string[] {
  return [...namesOf(new Parser(tokenize(expression)).parse(), new Set())];
}

/** The value of a formula for the given named values; throws RangeError for a missing name. */
export function evaluateRpnExpression(
  expression: string,
  values: Readonly<Record<string, number>>,
): number {
  return evaluate(new Parser(tokenize(expression)).parse(), values);
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A name a formula can use: letters, digits and underscores, not starting with a digit. */
export function identifierProblem(value: string): string | undefined {
  if (!IDENTIFIER.test(value))
    return 'must start with a letter and hold only letters, digits and underscores';
  if (value in FUNCTIONS) return `'${value}' is the name of a function`;
  return undefined;
}
