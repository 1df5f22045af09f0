import { Layout, Menu, Result, Spin } from 'antd';
import { Link, Navigate, Route, Routes, useLocation, useParams } from 'react-router';
import { ENTITY_DEFS } from '#core/entities/defs/index.ts';
import { actionOf } from '#core/entities/entity.ts';
import { defByPath } from '#client/shared/master-data/entity-registry.ts';
import { EntityListPage } from './EntityListPage.tsx';
import { MasterWorkbookPage } from './MasterWorkbookPage.tsx';
import { usePermissions } from '#client/shared/permissions.ts';
import { isEntityShown } from '#core/facilities/facility-features.ts';
import { useFacilityKind } from '#client/session/use-session.ts';
import { SAMPLING_POLICY_PATH, SamplingPolicyPage } from './sampling-policy/SamplingPolicyPage.tsx';
import {
  GROUP_MAPPING_PATH,
  LazyGroupMapping,
  LazyProductionMatrix,
  PRODUCTION_MATRIX_PATH,
} from './productions/LazyMappingPages.tsx';

import { MASTER_DATA_BASE } from '#client/shared/master-data/record-pages.ts';
import { RecordDetailPage } from './RecordDetailPage.tsx';
import { NamedRecordRedirect } from './NamedRecordRedirect.tsx';
import { HBEL_LIBRARY_PATH, HbelLibraryPage } from './hbel-library/HbelLibraryPage.tsx';

/** The path of the workbook page; no entity's path, so it is matched before `:path`. */
export const MASTER_WORKBOOK_PATH = 'workbook';

/** The declared entities the user may list; those with a screen of their own live there. */
function useVisibleDefs() {
  const permissions = usePermissions();
  const facility = useFacilityKind();
  return ENTITY_DEFS.filter(
    (def) =>
      !def.screen &&
      isEntityShown(facility, def.path) &&
      permissions.can(def.resource, actionOf(def, 'get')),
  );
}

/** Master data: a menu of the entities and, beside it, the list of the chosen one. */
export function MasterDataRoutes() {
  const defs = useVisibleDefs();
  const permissions = usePermissions();
  const canUseWorkbook =
    permissions.can('Master', 'BulkExport') || permissions.can('Master', 'BulkImport');
  const canSeeSamplingPolicy = permissions.can('SamplingMethod', 'Get');
  const canSeeLibrary = permissions.can('API', 'Get');
  const libraryPath = `${MASTER_DATA_BASE}/${HBEL_LIBRARY_PATH}`;
  const { pathname } = useLocation();
  // Until the permissions are known every entity is hidden: wait rather than refuse.
  if (permissions.isLoading) return <Spin />;
  const first = defs[0];
  const workbookPath = `${MASTER_DATA_BASE}/${MASTER_WORKBOOK_PATH}`;
  const mappings = [
    permissions.can('Production', 'Get') && {
      key: `${MASTER_DATA_BASE}/${PRODUCTION_MATRIX_PATH}`,
      label: 'Production-Equipment matrix',
    },
    permissions.can('EquipmentGroup', 'Get') && {
      key: `${MASTER_DATA_BASE}/${GROUP_MAPPING_PATH}`,
      label: 'Equipment group mapping',
    },
  ].filter((item) => item !== false);
  return (
    <Layout style={{ background: 'transparent' }}>
      <Layout.Sider
        width={200}
        theme="light"
        style={{ marginRight: 24, background: 'transparent' }}
      >
        <nav aria-label="Master data">
          <Menu
            mode="inline"
            selectedKeys={[
              pathname.startsWith(SAMPLING_POLICY_PATH)
                ? SAMPLING_POLICY_PATH
                : // A record's page (/master-data/apis/7) keeps its list selected.
                  pathname.split('/').slice(0, 3).join('/'),
            ]}
            items={[
              {
                type: 'group',
                key: 'master-data',
                label: 'Master data',
                children: defs.map((def) => ({
                  key: `${MASTER_DATA_BASE}/${def.path}`,
                  label: <Link to={`${MASTER_DATA_BASE}/${def.path}`}>{def.pluralLabel}</Link>,
                })),
              },
              ...(canSeeLibrary
                ? [
                    {
                      type: 'group' as const,
                      key: 'science',
                      label: 'Plan',
                      children: [
                        {
                          key: libraryPath,
                          label: <Link to={libraryPath}>HBEL library</Link>,
                        },
                      ],
                    },
                  ]
                : []),
              ...(canSeeSamplingPolicy
                ? [
                    {
                      type: 'group' as const,
                      key: 'sampling',
                      label: 'Sampling',
                      children: [
                        {
                          key: SAMPLING_POLICY_PATH,
                          label: <Link to={SAMPLING_POLICY_PATH}>Sampling Policy</Link>,
                        },
                      ],
                    },
                  ]
                : []),
              ...(mappings.length
                ? [
                    {
                      type: 'group' as const,
                      key: 'mappings',
                      label: 'Mappings',
                      children: mappings.map((item) => ({
                        key: item.key,
                        label: <Link to={item.key}>{item.label}</Link>,
                      })),
                    },
                  ]
                : []),
              ...(canUseWorkbook
                ? [
                    {
                      type: 'group' as const,
                      key: 'workbook',
                      label: 'Workbook',
                      children: [
                        {
                          key: workbookPath,
                          label: <Link to={workbookPath}>Import / export</Link>,
                        },
                      ],
                    },
                  ]
                : []),
            ]}
          />
        </nav>
      </Layout.Sider>
      <Layout.Content style={{ minWidth: 0 }}>
        <Routes>
          <Route
            index
            element={
              first ? (
                <Navigate to={`${MASTER_DATA_BASE}/${first.path}`} replace />
              ) : canUseWorkbook ? (
                <Navigate to={workbookPath} replace />
              ) : (
                <Result
                  status="403"
                  title="No master data for you here"
                  subTitle="Your roles in this facility do not allow you to view master data."
                />
              )
            }
          />
          <Route path={MASTER_WORKBOOK_PATH} element={<MasterWorkbookPage />} />
          <Route path={HBEL_LIBRARY_PATH} element={<HbelLibraryPage />} />
          <Route path={PRODUCTION_MATRIX_PATH} element={<LazyProductionMatrix />} />
          <Route path={GROUP_MAPPING_PATH} element={<LazyGroupMapping />} />
          <Route path=":path" element={<EntityRoute />} />
          <Route path=":path/:id" element={<RecordDetailPage />} />
          <Route path=":path/named/:name" element={<NamedRecordRedirect />} />
          <Route path="sampling-policy/*" element={<SamplingPolicyPage />} />
        </Routes>
      </Layout.Content>
    </Layout>
  );
}

function EntityRoute() {
  const { path } = useParams();
  const { search } = useLocation();
  const def = defByPath(path);
  if (!def) {
    return (
      <Result
        status="404"
        title="No such master data"
        extra={<Link to={MASTER_DATA_BASE}>Master data</Link>}
      />
    );
  }
  if (def.screen) return <Navigate to={`${def.screen}${search}`} replace />;
  // A new entity starts from a fresh list state.
  return <EntityListPage key={def.key} def={def} />;
}
