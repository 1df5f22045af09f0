import { parseLimitsInput } from '../limits/contract-input.ts';
import { contractDocument } from '../limits/contract-output.ts';
import { differences } from '../limits/golden/compare.ts';
import {
  computeWorkedCase,
  workedCaseProblems,
  type WorkedCase,
} from '../limits/golden/worked-cases.ts';

/*
 * The cases of the operational qualification: the worked examples, the command-line contract's
 * cases, the project's own cases and any case file a site adds. Each is answered by the engine
 * (here) and by the running instance's API, and each answer is held against the case's
 * expectation the same way (EU GMP Annex 15 §3–4 OQ; Annex 11 §4.7: evidence that the
 * calculations a site relies on give the expected results on the system as installed).
 */

/** A case of the command-line contract's format (golden/README.md), with its trace if it has one. */
export interface ContractCase {
  input: unknown;
  expected?: Record<string, unknown>;
  expectedErrorProperty?: string;
  expectedErrorProperties?: string[];
  exitCode: 0 | 2;
  title?: string;
  requirement?: string;
  guideline?: string;
}

export type CaseSet = 'worked' | 'contract' | 'own' | 'site';

/** What a case tests: the specification's section and the guideline behind it. */
export interface Trace {
  requirement: string;
  guideline: string;
}

export type QualificationCase = { set: CaseSet; id: string; title: string; trace: Trace } & (
  { worked: WorkedCase } | { contract: ContractCase }
);

/** An answer is plain JSON: what the engine gave, or why it gave nothing. */
export type CaseAnswer = Record<string, unknown>;

const asJson = (value: unknown): CaseAnswer => JSON.parse(JSON.stringify(value)) as CaseAnswer;

/** The engine's answer to a case, as JSON (as the API sends it, so both are judged alike). */
export function answerCase(c: QualificationCase): CaseAnswer {
  try {
    if ('worked' in c) return asJson(computeWorkedCase(c.worked));
    const parsed = parseLimitsInput(c.contract.input);
    return parsed.ok
      ? asJson({ exitCode: 0, document: contractDocument(parsed.input) })
      : { exitCode: 2, errorProperties: parsed.errors.map((e) => e.property) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

function expectedErrors(c: ContractCase): string[] {
  return c.expectedErrorProperties ?? (c.expectedErrorProperty ? [c.expectedErrorProperty] : []);
}

/** What the case expects, as the pack prints it beside the answers. */
export function expectationOf(c: QualificationCase): unknown {
  if ('worked' in c)
    return Object.fromEntries(Object.entries(c.worked.expected).map(([k, e]) => [k, e.value]));
  return c.contract.exitCode === 0
    ? { exitCode: 0, document: c.contract.expected }
    : { exitCode: 2, errorProperties: expectedErrors(c.contract) };
}

/** Every way an answer misses the case's expectation; empty when the case passes. */
export function caseProblems(c: QualificationCase, answer: CaseAnswer): string[] {
  if (typeof answer.error === 'string') return [`no answer: ${answer.error}`];
  if ('worked' in c) return workedCaseProblems(c.worked, answer);
  const expected = c.contract;
  if (answer.exitCode !== expected.exitCode)
    return [`exit code ${String(answer.exitCode)} ≠ ${expected.exitCode}`];
  if (expected.exitCode === 0) {
    // The contract's own tolerance: numbers agree to a relative 1e-6 (contracts/limits.md).
    return differences(answer.document, expected.expected, 1e-6).map((d) => `document${d}`);
  }
  const named = Array.isArray(answer.errorProperties) ? answer.errorProperties : [];
  const wanted = expectedErrors(expected);
  if (wanted.length === 0) return ['the case names no property that must be refused'];
  return wanted
    .filter((property) => !named.includes(property))
    .map((property) => `${property} was not refused`);
}
