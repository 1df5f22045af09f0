import { Layout, Menu, type MenuProps } from 'antd';
import { Link, useLocation } from 'react-router';
import { groupNavigation } from './navigation-groups.ts';
import { visibleNavigation } from './navigation.ts';
import { usePermissions } from '../shared/permissions.ts';
import { useFacilityKind } from '../session/use-session.ts';
import { PendingApprovalsBadge } from '../features/records/PendingApprovalsBadge.tsx';

/** The id of the menu, which the header's toggle names as what it shows and hides. */
export const MAIN_MENU_ID = 'main-menu';

interface AppSideNavProps {
  collapsed: boolean;
  /** Also called when the window gets narrower or wider than the breakpoint. */
  onCollapse: (collapsed: boolean) => void;
}

/** The main navigation: every area the user may open, in sections, always fully listed. */
export function AppSideNav({ collapsed, onCollapse }: AppSideNavProps) {
  const { pathname } = useLocation();
  const permissions = usePermissions();
  const facility = useFacilityKind();
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
      id={MAIN_MENU_ID}
      collapsible
      collapsed={collapsed}
      onCollapse={onCollapse}
      collapsedWidth={0}
      // The toggle is the header's button (AppHeader).
      trigger={null}
      // Folded below 1200 px: at 1024 the 232 px menu left a wide table 790 px (issue 30).
      breakpoint="xl"
    >
      {/* Busy until the permissions are known: entries needing one appear only then. */}
      <nav aria-label="Main" aria-busy={!permissions.isKnown}>
        <Menu mode="inline" selectedKeys={selected ? [selected] : []} items={items} />
      </nav>
    </Layout.Sider>
  );
}
