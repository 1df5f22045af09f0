/**
 * The qualification pack (issue 33):
 *   npm run qualification -- --out DIR [--cases FILE]...
 *   npm run qualification -- --out DIR --url URL --plan P --facility F [--token T] [--cases FILE]...
 * Runs every case (the worked examples, the limits contract's cases, the project's own cases and
 * each --cases file) through the engine installed here and through the API of a running
 * instance, and writes DIR/qualification-pack.json and DIR/qualification-pack.pdf. Exit 0 when
 * the pack passed, 1 when a case or the installation failed, 2 when it could not be made.
 * Without --url the instance is a fresh install of this code base started for the run
 * (fresh-instance.ts); with it, the site's instance at URL, reached with a token (a user's
 * session or a service account's API token, with ReportDocument Generate in the facility) from
 * --token or CARRYOVER_TOKEN.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { valuesJoined } from './option-values.ts';
import { DEFAULT_DATE_TIME_SETTINGS } from '#core/datetime/format-date-time.ts';
import type { CaseAnswer, QualificationCase } from '#core/qualification/cases.ts';
import { assemblePack, type Installation } from '#core/qualification/pack.ts';
import { qualificationCases } from '#server/modules/qualification/case-files.ts';
import { qualificationPdfContent } from '#server/modules/qualification/qualification-pdf.ts';
import { renderPreviewPdf } from '#server/modules/reports/controlled-pdf.ts';
import { startFreshInstance } from './fresh-instance.ts';

const USAGE =
  'usage: qualification --out DIR [--url URL --plan P --facility F [--token T]] [--cases FILE]...';

class UsageError extends Error {}

interface Instance {
  url: string;
  plan: string;
  facility: string;
  token: string;
}

function options() {
  const { values } = parseArgs({
    args: valuesJoined(process.argv.slice(2), ['token']),
    options: {
      out: { type: 'string' },
      url: { type: 'string' },
      token: { type: 'string' },
      plan: { type: 'string' },
      facility: { type: 'string' },
      cases: { type: 'string', multiple: true },
    },
  });
  const token = values.token ?? process.env.CARRYOVER_TOKEN;
  const { out, url, plan, facility } = values;
  if (!out) throw new UsageError(USAGE);
  const cases = values.cases ?? [];
  if (url === undefined) return { out, cases, instance: null };
  if (!plan || !facility || !token) throw new UsageError(USAGE);
  const instance: Instance = { url: url.replace(/\/$/, ''), plan, facility, token };
  return { out, cases, instance };
}

async function call<T>(o: Instance, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(
    `${o.url}/api/v2/plans/${o.plan}/facilities/${o.facility}/qualification/${path}`,
    {
      method,
      headers: {
        token: o.token,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    },
  );
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 500)}`);
  return JSON.parse(text) as T;
}

async function main(): Promise<number> {
  const { out, cases: caseFiles, instance } = options();
  // Read before an instance is started, so a faulty case file stops the run at once.
  const cases: QualificationCase[] = qualificationCases(caseFiles);
  const fresh = instance ? null : await startFreshInstance();
  try {
    return await makePack(out, caseFiles, cases, instance ?? fresh!, fresh !== null);
  } finally {
    await fresh?.close();
  }
}

async function makePack(
  out: string,
  caseFiles: string[],
  cases: QualificationCase[],
  o: Instance,
  isFresh: boolean,
): Promise<number> {
  const installation = await call<Installation>(o, 'GET', 'installation');
  const { answers } = await call<{ answers: CaseAnswer[] }>(o, 'POST', 'answers', { cases });
  const generatedAt = new Date();
  const pack = assemblePack({
    cases,
    apiAnswers: answers,
    installation,
    instance: isFresh
      ? `a fresh install of this code base at ${o.url}`
      : `${o.url} (plan ${o.plan}, facility ${o.facility})`,
    generatedAt: generatedAt.toISOString(),
  });
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'qualification-pack.json'), `${JSON.stringify(pack, null, 2)}\n`);
  const pdf = await renderPreviewPdf({
    facilityName: o.url,
    title: 'Qualification pack',
    settings: DEFAULT_DATE_TIME_SETTINGS,
    generatedBy: `npm run qualification (${installation.application.version})`,
    generatedAt,
    data: pack,
    parameters: { caseFiles: caseFiles.length },
    content: qualificationPdfContent(pack, DEFAULT_DATE_TIME_SETTINGS),
    fontSize: 7,
  });
  writeFileSync(join(out, 'qualification-pack.pdf'), pdf);
  const { summary } = pack;
  process.stdout.write(
    `Qualification ${pack.outcome}: ${summary.passed} of ${summary.cases} cases passed` +
      (summary.failed ? `; failed: ${summary.failedCases.join(', ')}` : '') +
      (installation.problems.length ? `; installation: ${installation.problems.join('; ')}` : '') +
      `\n${join(out, 'qualification-pack.json')}\n${join(out, 'qualification-pack.pdf')}\n`,
  );
  return pack.outcome === 'passed' ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
