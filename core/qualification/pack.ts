import {
  answerCase,
  caseProblems,
  expectationOf,
  type CaseAnswer,
  type CaseSet,
  type QualificationCase,
  type Trace,
} from './cases.ts';

/*
 * The qualification pack: an installation report (what is installed, IQ) and an operational
 * report (every case run through the engine and through the running instance's API, OQ), with
 * one outcome. A single failed case, or a problem of the installation, fails the pack (EU GMP
 * Annex 15 §3.3: the qualification is not complete while a test misses its acceptance criterion).
 */

export interface Installation {
  application: { name: string; version: string; commit: string | null };
  node: string;
  database: { kind: string; version: string };
  migrations: { name: string; sha256: string | null; applied: boolean }[];
  configuration: { name: string; value: string }[];
  dependencies: { name: string; version: string; integrity: string | null; dev: boolean }[];
  /** Where the installation differs from what it should be (a migration changed or missing). */
  problems: string[];
}

export interface PassRun {
  answer: CaseAnswer;
  problems: string[];
  pass: boolean;
}

export interface CaseResult {
  set: CaseSet;
  id: string;
  title: string;
  trace: Trace;
  expected: unknown;
  engine: PassRun;
  api: PassRun;
  pass: boolean;
}

export interface QualificationPack {
  outcome: 'passed' | 'failed';
  generatedAt: string;
  /** Where the API pass was made: the instance's address, or how the report job reached it. */
  instance: string;
  summary: { cases: number; passed: number; failed: number; failedCases: string[] };
  installation: Installation;
  operational: CaseResult[];
}

function judge(c: QualificationCase, answer: CaseAnswer): PassRun {
  const problems = caseProblems(c, answer);
  return { answer, problems, pass: problems.length === 0 };
}

/**
 * Runs every case on the engine here and takes the instance's answers (in the order of `cases`),
 * and puts the pack together. A missing API answer fails its case.
 */
export function assemblePack(options: {
  cases: QualificationCase[];
  apiAnswers: CaseAnswer[];
  installation: Installation;
  instance: string;
  generatedAt: string;
}): QualificationPack {
  const operational = options.cases.map((c, i): CaseResult => {
    const engine = judge(c, answerCase(c));
    const api = judge(c, options.apiAnswers[i] ?? { error: 'the API gave no answer' });
    return {
      set: c.set,
      id: c.id,
      title: c.title,
      trace: c.trace,
      expected: expectationOf(c),
      engine,
      api,
      pass: engine.pass && api.pass,
    };
  });
  const failedCases = operational.filter((r) => !r.pass).map((r) => `${r.set}/${r.id}`);
  // A pack that ran nothing proves nothing, and one on a faulty installation proves little.
  const passed =
    failedCases.length === 0 &&
    operational.length > 0 &&
    options.installation.problems.length === 0;
  return {
    outcome: passed ? 'passed' : 'failed',
    generatedAt: options.generatedAt,
    instance: options.instance,
    summary: {
      cases: operational.length,
      passed: operational.length - failedCases.length,
      failed: failedCases.length,
      failedCases,
    },
    installation: options.installation,
    operational,
  };
}
