import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Config } from './config.ts';
import type { Db } from './db/db.ts';
import type { AppContext } from './http/app-context.ts';
import { registerApiDocs } from './http/api-docs.ts';
import { clientDir, registerClientFiles } from './http/client-files.ts';
import { registerCompression } from './http/compression.ts';
import { registerErrorHandling } from './http/error-handler.ts';
import { responseSerializerCompiler } from './http/response-serializer.ts';
import { runGuardsBeforeValidation } from './http/guard-order.ts';
import { requireDeclaredGuards } from './http/route-guard.ts';
import { gateFacilityRoutes } from './http/facility-gate.ts';
import { createAccessCache, watchWrites } from './http/access-cache.ts';
import { refuseUnstorableInput } from './http/input-hygiene.ts';
import { apiValidatorCompiler, declareNoQueryByDefault } from './http/query-schema.ts';
import { registerMetrics } from './http/metrics.ts';
import { registerApiRateLimit } from './http/rate-limit.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { RequestLog } from './http/request-log.ts';
import { sessionLimitsOf } from './http/session-guard.ts';
import { createGuards } from './http/permission-guards.ts';
import { registerAuditRoutes } from './modules/audit/audit.routes.ts';
import { registerAuditLogRoutes } from './modules/audit/audit-log.routes.ts';
import {
  registerRecordHistoryRoutes,
  registerUserHistoryRoute,
} from './modules/audit/record-history.routes.ts';
import { registerAuthRoutes } from './modules/auth/auth.routes.ts';
import { registerSessionRoutes } from './modules/auth/session.routes.ts';
import { registerRecoveryRoutes } from './modules/auth/recovery.routes.ts';
import { registerFacilityRoutes } from './modules/facilities/facilities.routes.ts';
import { registerFeatureRoutes } from './modules/features/features.routes.ts';
import { registerSsoRoutes } from './modules/sso/sso.routes.ts';
import { registerActiveDirectoryRoutes } from './modules/active-directory/active-directory.routes.ts';
import { registerHealthRoutes } from './modules/health/health.routes.ts';
import { createMailer } from './util/mailer.ts';
import { registerMailOutboxRoutes } from './modules/mail/outbox.routes.ts';
import { registerFacilitySettingsRoutes } from './modules/settings/facility-settings.routes.ts';
import { registerPlanSettingsRoutes } from './modules/settings/plan-settings.routes.ts';
import { registerHbelLibraryRoutes } from './modules/hbel-library/hbel-library.routes.ts';
import { RECORD_DEFS } from '#core/entities/defs/index.ts';
import { registerEntityRoutes } from './modules/entities/entity.routes.ts';
import { registerWhereUsedRoute } from './modules/entities/where-used.routes.ts';
import { registerProductApisRoute } from './modules/entities/product-apis.routes.ts';
import { registerEntityVersionRoutes } from './modules/entities/entity-versions.routes.ts';
import { registerRuleVersionRoutes } from './modules/policies/rule-versions.routes.ts';
import { multipartOptions } from './modules/attachments/multipart-body.ts';
import { registerLimitsRoutes } from './modules/limits/limits.routes.ts';
import { registerLimitViewRoutes } from './modules/limits/limits-views.routes.ts';
import { registerMacExportRoutes } from './modules/limits/mac-export.routes.ts';
import { registerLimitReportRoutes } from './modules/limits/limit-reports.routes.ts';
import { registerWorstProductRoutes } from './modules/limits/worst-products.routes.ts';
import { registerPolicyRoutes } from './modules/policies/policies.routes.ts';
import { storeLimitsSnapshot } from './modules/policies/policy-approval.ts';
import { registerMasterRoutes } from './modules/master/master.routes.ts';
import { registerUserRoutes } from './modules/users/users.routes.ts';
import { registerUsersAdminRoutes } from './modules/users-admin/users-admin.routes.ts';
import { auditServiceAccountCalls } from './http/service-account-calls.ts';
import { registerServiceAccountRoutes } from './modules/users-admin/service-accounts.routes.ts';
import { registerRoleRoutes } from './modules/roles/roles.routes.ts';
import { registerDepartmentRoutes } from './modules/departments/departments.routes.ts';
import { registerOperatorRoutes } from './modules/operators/operators.routes.ts';
import { registerFacilityRuleRoutes } from './modules/facility-rules/facility-rules.routes.ts';
import { registerApprovalPolicyRoutes } from './modules/signatures/approval-policies.ts';
import { registerControlledEntities } from './records/controlled-entities.ts';
import { registerSignatureRoutes } from './modules/signatures/signatures.routes.ts';
import { registerEquipmentExtrasRoutes } from './modules/equipment-extras/equipment-extras.routes.ts';
import { registerRoomGradeRoutes } from './modules/room-grades/room-grades.routes.ts';
import { registerEquipmentStatusRoutes } from './modules/equipment-status/equipment-status.routes.ts';
import { registerAdditionalPropertyRoutes } from './modules/additional-properties/additional-properties.routes.ts';
import { registerProductionAreaRoutes } from './modules/productions/production-area.routes.ts';
import { registerEquipmentTrains, trainApproved } from './modules/productions/equipment-trains.ts';
import { registerApiProductions } from './modules/api-productions/api-productions.ts';
import { registerQualificationTaskRoutes } from './modules/cleaning-assessments/qualification-tasks.routes.ts';
import { registerRiskGoalRoutes } from './modules/cleaning-assessments/risk-goal.ts';
import { registerCleaningAssessmentRoutes } from './modules/cleaning-assessments/cleaning-assessments.routes.ts';
import { registerJobs } from './modules/jobs/jobs.routes.ts';
import type { JobWorkerOptions } from './jobs/worker.ts';
import { registerChangeAssessmentRoutes } from './modules/change-assessments/change-assessments.routes.ts';
import { registerRunRoutes } from './modules/verification/runs/runs.routes.ts';
import { registerResultsImportRoutes } from './modules/verification/results-import/results-import.routes.ts';
import { registerMicrobialRoutes } from './modules/verification/runs/microbial.routes.ts';
import { registerStudyRoutes } from './modules/verification/studies/studies.routes.ts';
import { registerStatisticsRoutes } from './modules/verification/statistics/statistics.routes.ts';
import { registerDashboardRoutes } from './modules/dashboard/dashboard.routes.ts';
import { registerLiveEventRoutes } from './modules/events/events.routes.ts';
import { registerAnalyticalMethodRoutes } from './modules/analytical-methods/analytical-methods.routes.ts';
import { registerFeedbackRoutes } from './modules/feedback/feedback.routes.ts';
import { registerReportRoutes } from './modules/reports/reports.routes.ts';
import { registerQualificationRoutes } from './modules/qualification/qualification.routes.ts';
import { registerCustomReportRoutes } from './modules/custom-reports/custom-reports.routes.ts';
import { registerWebhookRoutes } from './modules/webhooks/webhooks.routes.ts';
import { registerMacFormulaChanges } from './modules/limits/mac-formula-change.ts';
import { macFormulaChecks } from './modules/limits/mac-formula-approval.ts';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Every schema is zod: given these from the start, Fastify never loads its JSON-schema
 * compilers (ajv and fast-json-stringify, a tenth of a start). Its types name ajv's factories.
 */
const zodCompilers = {
  buildValidator: () => apiValidatorCompiler,
  buildSerializer: () => responseSerializerCompiler,
} as unknown as NonNullable<FastifyServerOptions['schemaController']>['compilersFactory'];

export interface BuildAppOptions {
  config: Config;
  db: Db;
  logger?: FastifyServerOptions['logger'];
  /** This instance's job worker (server/jobs), e.g. a shorter poll in tests. */
  jobs?: JobWorkerOptions;
  /** Where the built client is; dist/client unless a test serves one of its own. */
  clientFolder?: string;
}

/** Builds the whole HTTP application from its configuration and an open, migrated database. */
export async function buildApp({
  config,
  db,
  logger,
  jobs,
  clientFolder,
}: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? { level: config.LOG_LEVEL },
    logController: new RequestLog(),
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 10 * 1024 * 1024,
    requestIdHeader: false,
    // Fastify adds a HEAD route beside each GET by default: half the app's routes, each with its
    // own hooks and schemas to set up at every start, for a method no client, page or contract
    // of ours sends. The health probes keep theirs (a monitor may ask with HEAD), the client's
    // files declare theirs, and a HEAD elsewhere is answered 404 as any path without a route.
    exposeHeadRoutes: false,
    schemaController: { compilersFactory: zodCompilers },
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
  });
  app.decorateRequest('session', null);
  app.decorateRequest('refusedToken', null);
  requireDeclaredGuards(app);
  // Once shutdown starts, answers to in-flight requests close their connections, so that no
  // idle keep-alive socket holds the process open after the last answer.
  let isClosing = false;
  app.addHook('preClose', async () => {
    isClosing = true;
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (isClosing) reply.header('connection', 'close');
    done(null, payload);
  });

  await app.register(fastifyCookie);
  await registerCompression(app);
  await app.register(fastifyMultipart, multipartOptions(config));
  registerSecurityHeaders(app);
  await registerMetrics(app, db, config);
  const sessionLimits = sessionLimitsOf(config);
  const access = createAccessCache(db, sessionLimits, config.ACCESS_CACHE_SECONDS * 1000);
  watchWrites(app, access);
  auditServiceAccountCalls(app, db);
  registerApiRateLimit(app, db, config, access);
  registerApiDocs(app, zodCompilers);

  const client = clientFolder ?? clientDir();
  const servesClient = config.SERVE_CLIENT && (await registerClientFiles(app, client));
  registerErrorHandling(app, { spaFallback: servesClient && client });

  const mailer = createMailer(db, {
    smtpUrl: config.SMTP_URL,
    from: config.MAIL_FROM,
    onError: (error) => app.log.error({ err: error }, 'mail delivery failed'),
  });
  app.addHook('onClose', async () => mailer.close());
  const context: AppContext = {
    app,
    db,
    config,
    mailer,
    ...createGuards(db, sessionLimits, access),
  };
  runGuardsBeforeValidation(app, context.requireSession);
  gateFacilityRoutes(app, db, access);
  refuseUnstorableInput(app);
  declareNoQueryByDefault(app);
  registerHealthRoutes(context);
  registerFeatureRoutes(context);
  registerAuthRoutes(context);
  registerSessionRoutes(context);
  registerSsoRoutes(context);
  registerActiveDirectoryRoutes(context);
  registerRecoveryRoutes(context);
  registerUserRoutes(context);
  registerUsersAdminRoutes(context);
  registerServiceAccountRoutes(context);
  registerRoleRoutes(context);
  registerDepartmentRoutes(context);
  registerOperatorRoutes(context);
  registerFacilityRoutes(context);
  registerAuditRoutes(context);
  registerAuditLogRoutes(context);
  registerUserHistoryRoute(context);
  registerMailOutboxRoutes(context);
  registerPlanSettingsRoutes(context);
  registerFacilitySettingsRoutes(context);
  for (const def of RECORD_DEFS) {
    registerEntityRoutes(context, def);
    registerEntityVersionRoutes(context, def);
    registerWhereUsedRoute(context, def);
    registerRecordHistoryRoutes(context, def);
  }
  registerProductApisRoute(context);
  registerHbelLibraryRoutes(context);
  registerLimitsRoutes(context);
  registerLimitViewRoutes(context);
  registerMacExportRoutes(context);
  registerLimitReportRoutes(context);
  registerWorstProductRoutes(context);
  registerPolicyRoutes(context);
  registerMasterRoutes(context);
  registerFacilityRuleRoutes(context);
  registerRuleVersionRoutes(context);
  registerApprovalPolicyRoutes(context);
  // Issue 32: where change control applies, a MAC formula is put in force by a change assessment.
  registerMacFormulaChanges();
  // Its Submit and its approval check its expression again (issue 32), whatever path reached them.
  registerControlledEntities(undefined, {
    MacFormula: { onApproved: storeLimitsSnapshot, ...macFormulaChecks },
    // Issue 32: an approved train's equipment goes to its productions, and the limits that
    // moves are kept as a snapshot the Approve signature names, as a MAC formula's are.
    EquipmentTrain: {
      onApproved: async (tx, approved) => {
        await trainApproved(tx, approved);
        return storeLimitsSnapshot(tx, approved);
      },
    },
  });
  registerSignatureRoutes(context);
  registerEquipmentExtrasRoutes(context);
  registerRoomGradeRoutes(context);
  // Issue 31: equipment status, the cleaning and use log, release and the production hold.
  registerEquipmentStatusRoutes(context);
  registerAdditionalPropertyRoutes(context);
  registerProductionAreaRoutes(context);
  // Issue 32: equipment trains, named by productions.
  registerEquipmentTrains();
  // Issue 32: an API facility's productions, process steps and step substances.
  registerApiProductions();
  // Issue 11: qualification tasks and the risk goal.
  registerQualificationTaskRoutes(context);
  registerRiskGoalRoutes(context);
  registerCleaningAssessmentRoutes(context);
  registerJobs(context, jobs);
  registerChangeAssessmentRoutes(context);
  // Issue 12: studies (protocols are declared records), runs, sample results and deviations.
  registerStudyRoutes(context);
  registerRunRoutes(context);
  // Issue 33: results from the laboratory's systems.
  registerResultsImportRoutes(context);
  registerMicrobialRoutes(context);
  // Issue 12: ongoing verification statistics and their settings.
  registerStatisticsRoutes(context);
  // Issue 13: the dashboard (the new Home) and feedback from any screen.
  registerDashboardRoutes(context);
  registerAnalyticalMethodRoutes(context);
  registerFeedbackRoutes(context);
  // Issue 13: reports as controlled documents.
  registerReportRoutes(context);
  // Issue 13: custom reports (their saved definitions are the declared record report-data).
  registerCustomReportRoutes(context);
  // Issue 33: the qualification pack's installation and engine answers.
  registerQualificationRoutes(context);
  // Issue 30: live updates of open screens (server-sent events).
  registerLiveEventRoutes(context);
  // Issue 33: events to other systems (webhooks) and their delivery worker.
  registerWebhookRoutes(context);

  return app;
}
