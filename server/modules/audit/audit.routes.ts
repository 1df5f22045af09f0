import { ZAuditAnchorResult, ZAuditVerifyResult } from '#core/schemas/audit.schemas.ts';
import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { actorOf, sessionOf } from '#server/http/session-guard.ts';
import { createAnchorStore } from './audit-anchor.ts';
import { auditChains, auditScope } from './audit-log.service.ts';
import { verifyChain } from './audit-chain.ts';
import { writeAudit } from '#server/db/audit-write.ts';
import { signatureKey } from '#server/records/signature-binding.ts';
import { checkedSignatures } from '#server/records/signatures.read.ts';
import { brokenRecords } from '#server/records/record-integrity.ts';

export function registerAuditRoutes({ app, db, config, permit, permitPlan }: AppContext): void {
  const anchors = createAnchorStore(config, (message) => app.log.warn(message));
  const r = typed(app);

  async function verify(chains: string[]) {
    const anchored = await anchors.read(db);
    const checks = [];
    for (const chain of chains) checks.push(await verifyChain(db, chain, anchored));
    const facilityIds = chains.flatMap((c) =>
      c.startsWith('facility:') ? [Number(c.slice('facility:'.length))] : [],
    );
    const key = await signatureKey(config, (message) => app.log.warn(message));
    const signatures = await checkedSignatures(db, key, { facilityIds });
    const invalid = signatures.flatMap((s) =>
      s.problem
        ? [
            {
              id: s.id,
              documentType: s.documentType,
              documentId: s.documentId,
              versionNumber: s.versionNumber,
              problem: s.problem,
            },
          ]
        : [],
    );
    const broken = [];
    for (const facilityId of facilityIds)
      broken.push(...(await brokenRecords(db, key, facilityId)).values());
    return {
      intact: checks.every((c) => c.intact) && invalid.length === 0 && broken.length === 0,
      chains: checks,
      signatures: { checked: signatures.length, invalid },
      records: { broken },
    };
  }

  r.get(
    '/api/v2/plans/:plan/facilities/:facility/audit_logs/verify',
    {
      preHandler: permit('AuditLog', 'Get'),
      schema: {
        tags: ['audit'],
        summary:
          "Recompute the hash chains of the facility's and the plan's audit trail, and check the facility's electronic signatures",
        params: ZFacilityParams,
        response: { 200: ZAuditVerifyResult },
      },
    },
    async (request) => {
      const { plan, facility } = request.params;
      return verify([`facility:${facility}`, `plan:${plan}`]);
    },
  );

  r.get(
    '/api/v2/audit_logs/verify',
    {
      preHandler: permitPlan('AuditLog', 'Get'),
      schema: {
        tags: ['audit'],
        summary:
          'Recompute the hash chains the caller may read, show each head, compare them with the signed anchors (naming the first row that differs), and check the electronic signatures of those facilities',
        response: { 200: ZAuditVerifyResult },
      },
    },
    async (request) => verify(auditChains(await auditScope(db, sessionOf(request)))),
  );

  r.post(
    '/api/v2/audit_logs/anchor',
    {
      preHandler: permitPlan('AuditLog', 'Get'),
      schema: {
        tags: ['audit'],
        summary: 'Write a signed record of every chain head outside the database, now',
        response: { 200: ZAuditAnchorResult },
      },
    },
    async (request) => {
      const scope = await auditScope(db, sessionOf(request));
      // Recorded first, so that the anchor also covers its own audit row.
      await db.transaction((tx) =>
        writeAudit(tx, actorOf(request), {
          planId: scope.planId,
          domain: 'AuditLog',
          action: 'Anchor',
        }),
      );
      const written = await anchors.write(db);
      const visible = new Set(auditChains(scope));
      return {
        anchors: written
          .filter((a) => visible.has(a.chain))
          .map(({ chain, seq, hash, at }) => ({ chain, seq, hash, at })),
      };
    },
  );
}
