import fs from 'node:fs';
import path from 'node:path';

/*
 * Which folder may import which (issue 15). Paths are resolved, so a deep relative import and a
 * `#client/…` alias are judged alike. Layers, top to bottom:
 *   client: Root → app/ (shell, route wiring) → features/<area>/ (one area's pages) → shared/
 *           (what more than one feature uses) → api/, session/; account/ is the signed-out screens.
 *   server: app.ts, main.ts, cli/ → modules/<area>/ (routes and services of one area) → http/
 *           (guards, context) → sessions/, records/, entities/, jobs/ (libraries) → db/, util/.
 * A module imports another only where the import names a shared kernel (KERNELS, below). Test
 * files stand above the app: they build their state through whichever layer serves it and check
 * that two modules agree, so these server rules judge production files only (the older rule that
 * server/http/ imports no module judges its tests too).
 */
const SERVER_TOP = /^server\/cli\/|^server\/(app|main)\.ts$/;

/** Gives each path of a group of kernels the group's one reason. */
const each = (paths, why) => Object.fromEntries(paths.map((p) => [p, why]));

/*
 * The shared kernels of server/modules/: a module may import another module's file only when the
 * file (or its whole module, written 'area/') is listed here, with why it is shared rather than
 * copied. Paths are under server/modules/. A new entry is a design decision: prefer moving a
 * piece that needs no module down to records/, entities/, db/ or util/.
 */
const KERNELS = {
  'audit/':
    'The audit trail (21 CFR 11.10(e), EU GMP Annex 11 §9) is read one way everywhere: names, the facility time zone, the chain check and its PDF, so every export shows the same trail.',
  'limits/':
    'The limits are computed live from the data and never stored: reports, assessments, the dashboard and custom reports take them from this one computation so that no two screens disagree.',
  ...each(
    [
      'policies/policy-in-force.ts',
      'policies/policy-documents.ts',
      'policies/policies.service.ts',
      'policies/policy-approval.ts',
    ],
    'The approved limit policy is the one runs and limits enforce (issue 26); a change assessment edits and applies policies through the same service as the policy screens.',
  ),
  'facility-rules/facility-rules.service.ts':
    "The one store of a facility's versioned rules (approval policies, risk goal, verification settings): one write path and one audit row for each.",
  ...each(
    [
      'auth/signing-password.ts',
      'auth/auth.service.ts',
      'auth/policy.ts',
      'auth/auth-rate-limit.ts',
      'auth/one-time-tokens.ts',
    ],
    "How a person proves who they are: signing re-enters the password (21 CFR 11.200(a)), single sign-on opens the session, and a new account's link is a one-time token, all counted and locked alike.",
  ),
  ...each(
    [
      'active-directory/active-directory.settings.ts',
      'active-directory/directory-client.ts',
      'active-directory/directory-password.ts',
    ],
    "A plan's directory decides passwords when it is switched on: sign-in, signing and setup read its settings from here.",
  ),
  ...each(
    ['sso/sso-signing.ts', 'sso/sso.service.ts'],
    'Single sign-on: the freshness a signature resting on it needs, and whether it is switched on.',
  ),
  ...each(
    [
      'attachments/attachment.routes.ts',
      'attachments/entity-documents.ts',
      'attachments/multipart-body.ts',
    ],
    "Every declared record may carry documents: the generic entity routes take and list them through the attachments module's own reads, writes and upload limits.",
  ),
  'mail/mail-templates.ts':
    'The mail bodies of the product, one wording for each message whichever module sends it.',
  ...each(
    [
      'users-admin/records.ts',
      'users-admin/user-privileges.ts',
      'users-admin/users-admin.service.ts',
    ],
    "Users of the plan: the rows' wire shape, the refusal to widen someone's access, and the versioned account write, shared by roles, departments, operators and the directory.",
  ),
  'roles/roles.service.ts':
    'The stored permission maps (spec §6): an operator is granted a role through them.',
  ...each(
    [
      'change-assessments/change-assessments.read.ts',
      'change-assessments/change-assessments.service.ts',
      'change-assessments/change-evaluate.ts',
      'change-assessments/staged-targets.ts',
    ],
    'A change to the basis of the limits takes effect through a change assessment (EU GMP Annex 15 §11): a new version of an HBEL library entry opens one in each facility using it, stages its move and evaluates its impact through the same service as the assessment screens.',
  ),
  'hbel-library/lineage.read.ts':
    "Where a linked active's PDE comes from (the plan's HBEL library, a site's signed override): the active's page and the limits' derivations and reports say it from this one read (EMA HBEL guideline §7).",
  'signatures/signatures.service.ts':
    'Who may sign in a facility: My approvals on the dashboard counts what the signing service accepts.',
  ...each(
    ['master/master-export.ts', 'master/master-sections.ts'],
    "The facility's master data as of a moment, named and in the workbook's order: reports and assessments snapshot the same rows the workbook exports.",
  ),
  ...each(
    [
      'change-assessments/change-assessments.read.ts',
      'change-assessments/change-assessments.service.ts',
      'change-assessments/impact-pdf.ts',
    ],
    'A change assessment is what other records point to (a run, a cleaning assessment, a report): they read it and its impact as the assessment itself does.',
  ),
  ...each(
    [
      'cleaning-assessments/from-last.ts',
      'cleaning-assessments/qualification-tasks.ts',
      'cleaning-assessments/risk-goal.ts',
    ],
    "A cleaning assessment's tasks, risk goal and audit domains: studies close its tasks, and the dashboard and reports show its result.",
  ),
  'dashboard/dashboard.service.ts':
    'The annual summary and the report comparison print the dashboard figures as the dashboard reads them.',
  'equipment-status/changeover.ts':
    'The changeover decision (issue 31) is answered one way: the line screen, the production hold and the changeover sampling sheet read the same limits, coverage and sampling plan.',
  ...each(
    ['qualification/qualification-run.ts', 'qualification/qualification-pdf.ts'],
    'The qualification pack is made one way: the command line and the controlled report run the same cases into the same pack and draw it on the same pages.',
  ),
  ...each(
    ['master/workbook-read.ts', 'master/workbook-columns.ts', 'master/import-slots.ts'],
    "One reader of uploaded workbooks with one set of limits (size once unzipped, rows, imports at once): the laboratory's results import reads its xlsx files as the master-data import does.",
  ),
  'reports/controlled-pdf.ts':
    'The one layout of every controlled PDF (header, footer, signature page), also used by the MAC and impact exports.',
  ...each(
    [
      'verification/runs/run-plan.ts',
      'verification/runs/runs.read.ts',
      'verification/statistics/statistics-points.ts',
      'verification/statistics/verification-settings.ts',
      'verification/studies/studies.read.ts',
      'verification/studies/study-coverage.ts',
      'verification/studies/protocol-fitness.ts',
    ],
    'Studies, runs and their statistics are the evidence of cleaning verification: assessments, methods, the dashboard and reports read them one way.',
  ),
};

const LAYERS = [
  {
    from: /^client\/features\/([^/]+)\//,
    to: /^client\/features\/([^/]+)\//,
    sameArea: true,
    message: 'A feature imports no other feature: move what both use to client/shared/.',
  },
  {
    from: /^client\/(features|shared|account|api|session)\//,
    to: /^client\/app\//,
    message: 'Only the shell wires features: nothing below client/app/ imports it.',
  },
  {
    from: /^client\/(shared|api|session|account)\//,
    to: /^client\/features\//,
    message: 'client/shared/ and the layers below it import no feature.',
  },
  {
    from: /^server\/http\//,
    to: /^server\/modules\//,
    message:
      'server/http/ imports no module: move the shared piece below it (db/, util/, sessions/).',
  },
  {
    from: /^server\/http\//,
    to: SERVER_TOP,
    productionOnly: true,
    message: 'server/http/ imports neither the app nor the CLI.',
  },
  {
    from: /^server\/modules\//,
    to: SERVER_TOP,
    productionOnly: true,
    message: 'A module is wired by server/app.ts and never imports it (nor the CLI).',
  },
  {
    from: /^server\/(sessions|records|entities|jobs)\//,
    to: /^server\/(http|modules|cli)\/|^server\/(app|main)\.ts$/,
    productionOnly: true,
    message:
      'sessions/, records/, entities/ and jobs/ are libraries: they import no route, guard or module (move the shared piece down, or the route up into server/modules/).',
  },
  {
    from: /^server\/(db|util)\//,
    to: /^server\/(sessions|records|entities|jobs|http|modules|cli)\/|^server\/(app|main)\.ts$/,
    productionOnly: true,
    message: 'server/db/ and server/util/ are the bottom layer: they import nothing above them.',
  },
  {
    from: /^server\/modules\/([^/]+)\//,
    to: /^server\/modules\/([^/]+)\//,
    sameArea: true,
    kernels: KERNELS,
    productionOnly: true,
    message:
      'A module imports another module only through a shared kernel listed in scripts/eslint-boundaries.mjs (KERNELS, with its reason): move the shared piece down a layer, or list it.',
  },
];

const aliases = Object.entries(
  JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')).imports ?? {},
);

/** Whether a path under server/modules/ is a listed kernel: its whole module, or the file. */
function isKernel(kernels, target) {
  const inModules = target.slice('server/modules/'.length);
  const area = inModules.slice(0, inModules.indexOf('/') + 1);
  return Object.hasOwn(kernels, area) || Object.hasOwn(kernels, inModules);
}

/** The repository path a specifier names, or null for a package. */
function resolve(spec, file, cwd) {
  if (spec.startsWith('.')) return path.relative(cwd, path.resolve(path.dirname(file), spec));
  for (const [key, value] of aliases) {
    const prefix = key.replace('*', '');
    if (spec.startsWith(prefix)) {
      return path.normalize(value.replace('*', spec.slice(prefix.length)));
    }
  }
  return null;
}

const rule = {
  meta: { type: 'problem', schema: [], messages: { layer: '{{message}} ({{target}})' } },
  create(context) {
    const file = path.relative(context.cwd, context.filename).split(path.sep).join('/');
    const isTest = /\.test\.tsx?$/.test(file);
    const layers = LAYERS.filter(
      (layer) => layer.from.test(file) && !(layer.productionOnly && isTest),
    );
    if (!layers.length) return {};
    function check(source) {
      if (source?.type !== 'Literal' || typeof source.value !== 'string') return;
      const target = resolve(source.value, context.filename, context.cwd)
        ?.split(path.sep)
        .join('/');
      if (!target) return;
      for (const layer of layers) {
        const into = layer.to.exec(target);
        if (!into) continue;
        if (layer.sameArea && layer.from.exec(file)[1] === into[1]) continue;
        if (layer.kernels && isKernel(layer.kernels, target)) continue;
        context.report({
          node: source,
          messageId: 'layer',
          data: { message: layer.message, target },
        });
      }
    }
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

export const boundaries = { rules: { layers: rule } };
