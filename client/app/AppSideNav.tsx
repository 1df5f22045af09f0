import { Layout, Menu, type MenuProps } from 'antd';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { groupNavigation } from './navigation-groups.ts';
import { visibleNavigation } from './navigation.ts';
import { usePermissions } from './permissions.ts';
import { useFacilityKind } from '../session/use-session.ts';
import { PendingApprovalsBadge } from '../features/records/PendingApprovalsBadge.tsx';

/** The main navigation: every area the user may open, in sections, always fully listed. */
export function AppSideNav() {
  const { pathname } = useLocation();
  const permissions = usePermissions();
  const facility = useFacilityKind();
  const [collapsed, setCollapsed] = useState(false);
  const items: MenuProps['items'] = groupNavigation(
    visibleNavigation(permissions.data, facility),
  ).flatMap((section): NonNullable<MenuProps['items']> => {
    const links = section.entries.map((entry) => ({
      key: entry.path,
      label: (
        <Link to={entry.path}>
          {entry.label}
          {entry.path === '/my-approvals' ? <PendingApprovalsBadge /> : null}
        </Link>
      ),
    }));
    return section.label === null
      ? links
      : [{ type: 'group' as const, key: section.label, label: section.label, children: links }];
  });
  // The longest entry whose path starts the current one is the area the user is in.
  const selected = visibleNavigation(permissions.data, facility)
    .map((item) => item.path)
    .filter((path) => path === pathname || (path !== '/' && pathname.startsWith(`${path}/`)))
    .sort((a, b) => b.length - a.length)[0];

  return (
    <Layout.Sider
      className="app-sider"
      width={232}
      theme="light"
      collapsible
      collapsed={collapsed}
      onCollapse={setCollapsed}
      collapsedWidth={0}
      breakpoint="lg"
    >
      {/* Busy until the permissions are known: entries needing one appear only then. */}
      <nav aria-label="Main" aria-busy={!permissions.isKnown}>
        <Menu mode="inline" selectedKeys={selected ? [selected] : []} items={items} />
      </nav>
    </Layout.Sider>
  );
}
