import { QueryClientProvider } from '@tanstack/react-query';
import { Button, Layout, Result } from 'antd';
import { useState } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useNavigate } from 'react-router';
import { LoadingSpinner } from '../account/LoadingSpinner.tsx';
import { LazyAuditLog } from '../features/audit-log/LazyAuditLog.tsx';
import { LazyOutbox } from '../features/outbox/LazyOutbox.tsx';
import { LazyWebhooks } from '../features/webhooks/LazyWebhooks.tsx';
import { LazyFeedback } from '../features/feedback/LazyFeedback.tsx';
import { LazySettings } from '../features/settings/LazySettings.tsx';
import { LazyMacMatrix } from '../features/limits/LazyMacMatrix.tsx';
import { LazyLimitReports } from '../features/limits/LazyLimitReports.tsx';
import { LazyMasterData } from '../features/master-data/LazyMasterData.tsx';
import { LazyPolicies } from '../features/policies/LazyPolicies.tsx';
import { LazyChangeAssessments } from '../features/change-assessments/LazyChangeAssessments.tsx';
import { LazyEquipmentDetail } from '../features/master-data/equipment/LazyEquipmentDetail.tsx';
import { LazyRoomGrades } from '../features/room-grades/LazyRoomGrades.tsx';
import { LazyEquipmentStatus } from '../features/equipment-status/LazyEquipmentStatus.tsx';
import { LazyMyApprovals } from '../features/records/LazyMyApprovals.tsx';
import { LazyReports } from '../features/reports/LazyReports.tsx';
import { LazyCustomReports } from '../features/custom-reports/LazyCustomReports.tsx';
import { LazyCleaningAssessments } from '../features/cleaning-assessments/LazyCleaningAssessments.tsx';
import {
  LazyDeviation,
  LazyResultsImport,
  LazyRun,
  LazyVerification,
} from '../features/verification/LazyVerification.tsx';
import { LazyProtocols } from '../features/master-data/protocols/LazyProtocols.tsx';
import { LazyMacFormulas } from '../features/master-data/mac-formulas/LazyMacFormulas.tsx';
import { LazyStudies } from '../features/studies/LazyStudies.tsx';
import { adminRoutes } from './admin-routes.tsx';
import { endSession, LogoutPage } from '../account/LogoutPage.tsx';
import { useSession } from '../session/use-session.ts';
import { AppHeader } from './AppHeader.tsx';
import { AppSideNav } from './AppSideNav.tsx';
import { HomePage } from './HomePage.tsx';
import { IdleWarning } from './IdleWarning.tsx';
import { SignInAgainModal } from './SignInAgainModal.tsx';
import { LicenseNotice } from './LicenseNotice.tsx';
import { createQueryClient } from './query-client.ts';
import { useCurrentUser, useFacilities } from '../shared/session-queries.ts';
import { useSignedInRedirect } from './use-signed-in-redirect.ts';
import { useLiveUpdates } from './live-updates.ts';

/** The main application after a facility is chosen (lazy-loaded: see Root.tsx). */
export function AppShell() {
  // One cache per signed-in session: a new sign-in starts from nothing.
  const [queryClient] = useState(createQueryClient);
  // The router comes with the application: the account screens move without it
  // (account-navigation.tsx), and this one reads the address they left.
  return (
    <BrowserRouter>
      <QueryClientProvider client={queryClient}>
        <Routes>
          {/* Logout must not wait for the account to load (nor fail with it). */}
          <Route path="/logout" element={<LogoutPage />} />
          <Route path="*" element={<SignedInApp />} />
        </Routes>
        <IdleWarning />
        <SignInAgainModal />
      </QueryClientProvider>
    </BrowserRouter>
  );
}

function SignedInApp() {
  const navigate = useNavigate();
  const session = useSession();
  const me = useCurrentUser();
  const facilities = useFacilities(session.planId);
  const [isMenuCollapsed, setMenuCollapsed] = useState(false);
  useSignedInRedirect(facilities.data);
  // Open screens follow what other users change or sign in this facility (issue 30), once the
  // server has answered for this session: a page reloaded on an ended session asks nothing more.
  useLiveUpdates(session.planId, me.status === 'success' ? session.currentFacilityId : null);

  if (me.isPending || facilities.isPending) return <LoadingSpinner label="Loading Carryover" />;

  // Only when there is nothing to show: a refetch that fails while signed out (401/419) must not
  // take away the page the user is signing in again over.
  if (me.data === undefined || facilities.data === undefined) {
    return (
      <Result
        status="warning"
        title="Carryover could not load your account"
        subTitle={(me.error ?? facilities.error)?.message}
        extra={[
          <Button
            key="retry"
            type="primary"
            onClick={() => void Promise.all([me.refetch(), facilities.refetch()])}
          >
            Try again
          </Button>,
          <Button key="logout" onClick={() => void endSession(navigate)}>
            Logout
          </Button>,
        ]}
      />
    );
  }

  const facility = facilities.data.find((candidate) => candidate.id === session.currentFacilityId);
  if (!facility) {
    return (
      <Result
        status="403"
        title="This facility is no longer available to you"
        subTitle="Sign in again to choose one of your facilities."
        extra={
          <Button type="primary" onClick={() => void endSession(navigate)}>
            Logout
          </Button>
        }
      />
    );
  }

  return (
    <Layout className="app-layout">
      <AppHeader
        user={me.data}
        facility={facility}
        facilities={facilities.data}
        isMenuCollapsed={isMenuCollapsed}
        onToggleMenu={() => setMenuCollapsed(!isMenuCollapsed)}
      />
      <Layout>
        <AppSideNav collapsed={isMenuCollapsed} onCollapse={setMenuCollapsed} />
        <Layout.Content className="app-content">
          <LicenseNotice facilityId={facility.id} />
          <Routes>
            <Route index element={<HomePage user={me.data} facility={facility} />} />
            <Route path="master-data/*" element={<LazyMasterData />} />
            <Route path="limits/mac-matrix" element={<LazyMacMatrix />} />
            <Route path="limits/reports" element={<LazyLimitReports />} />
            <Route path="policies" element={<LazyPolicies />} />
            <Route path="policies/mac-formulas" element={<LazyMacFormulas />} />
            <Route path="change-control/*" element={<LazyChangeAssessments />} />
            <Route path="master-data/equipments/:id" element={<LazyEquipmentDetail />} />
            <Route path="room-grades" element={<LazyRoomGrades />} />
            <Route path="equipment-status" element={<LazyEquipmentStatus />} />
            <Route path="cleaning-assessments/*" element={<LazyCleaningAssessments />} />
            <Route path="runs/:id" element={<LazyRun />} />
            <Route path="deviations/:id" element={<LazyDeviation />} />
            <Route path="verification" element={<LazyVerification />} />
            <Route path="verification/results-import" element={<LazyResultsImport />} />
            <Route path="protocols" element={<LazyProtocols />} />
            <Route path="studies/*" element={<LazyStudies />} />
            {adminRoutes(facilities.data)}
            <Route path="reports" element={<LazyReports />} />
            <Route path="reports/custom" element={<LazyCustomReports />} />
            <Route path="my-approvals" element={<LazyMyApprovals />} />
            <Route path="audit-log" element={<LazyAuditLog />} />
            <Route path="settings" element={<LazySettings />} />
            <Route path="mail-outbox" element={<LazyOutbox />} />
            <Route path="webhooks" element={<LazyWebhooks />} />
            <Route path="feedback" element={<LazyFeedback />} />
            <Route path="*" element={<Navigate to="/" replace />} />
          </Routes>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
