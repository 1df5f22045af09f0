import { lazy, type ReactNode } from 'react';
import { Route } from 'react-router';
import type { Facility } from '../api/auth-types.ts';
import { PermissionGate } from '../shared/PermissionGate.tsx';
import { canUseArea, type AdminArea } from '../features/roles/admin-areas.ts';

// Administration pages are chunks of their own: neither sign-in nor the shell downloads them.
const UsersPage = lazy(() =>
  import('../features/users/UsersPage.tsx').then((m) => ({ default: m.UsersPage })),
);
const ServiceAccountsPage = lazy(() =>
  import('../features/users/ServiceAccountsPage.tsx').then((m) => ({
    default: m.ServiceAccountsPage,
  })),
);
const RolesPage = lazy(() =>
  import('../features/roles/RolesPage.tsx').then((m) => ({ default: m.RolesPage })),
);
const DepartmentsPage = lazy(() =>
  import('../features/departments/DepartmentsPage.tsx').then((m) => ({
    default: m.DepartmentsPage,
  })),
);
const OperatorsPage = lazy(() =>
  import('../features/operators/OperatorsPage.tsx').then((m) => ({ default: m.OperatorsPage })),
);

const FacilitiesPage = lazy(() =>
  import('../features/facilities/FacilitiesPage.tsx').then((m) => ({ default: m.FacilitiesPage })),
);
const FacilityGroupsPage = lazy(() =>
  import('../features/facilities/FacilityGroupsPage.tsx').then((m) => ({
    default: m.FacilityGroupsPage,
  })),
);

function Gated({ area, children }: { area: AdminArea; children: ReactNode }) {
  return (
    <PermissionGate isAllowed={(permissions) => canUseArea(permissions, area)}>
      {children}
    </PermissionGate>
  );
}

/** The administration routes of the shell; each page refuses users without its permission. */
export function adminRoutes(facilities: Facility[]) {
  return [
    <Route
      key="users"
      path="users"
      element={
        <Gated area="users">
          <UsersPage facilities={facilities} />
        </Gated>
      }
    />,
    <Route
      key="service-accounts"
      path="users/service-accounts"
      element={
        <Gated area="users">
          <ServiceAccountsPage facilities={facilities} />
        </Gated>
      }
    />,
    <Route
      key="roles"
      path="roles"
      element={
        <Gated area="roles">
          <RolesPage />
        </Gated>
      }
    />,
    <Route
      key="departments"
      path="departments"
      element={
        <Gated area="departments">
          <DepartmentsPage />
        </Gated>
      }
    />,
    <Route
      key="operators"
      path="operators"
      element={
        <Gated area="operators">
          <OperatorsPage />
        </Gated>
      }
    />,
    <Route
      key="facilities"
      path="facilities"
      element={
        <Gated area="facilities">
          <FacilitiesPage />
        </Gated>
      }
    />,
    <Route
      key="facility-groups"
      path="facility-groups"
      element={
        <Gated area="facility-groups">
          <FacilityGroupsPage />
        </Gated>
      }
    />,
  ];
}
