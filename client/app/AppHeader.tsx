import { LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Layout, Menu, Space, Typography } from 'antd';
import { Link, useLocation, useNavigate } from 'react-router';
import type { Facility, LoginUser } from '../api/auth-types.ts';
import { endSession } from '../account/LogoutPage.tsx';
import { FacilitySwitch } from './FacilitySwitch.tsx';
import { visibleNavigation } from './navigation.ts';
import { useMyPermissions } from './use-my-permissions.ts';

interface AppHeaderProps {
  user: LoginUser;
  facility: Facility;
  facilities: Facility[];
}

export function fullName(user: LoginUser): string {
  return [user.firstName, user.lastName].filter(Boolean).join(' ') || user.username;
}

export function AppHeader({ user, facility, facilities }: AppHeaderProps) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const permissions = useMyPermissions();
  const items = visibleNavigation(permissions.data).map((item) => ({
    key: item.path,
    label: <Link to={item.path}>{item.label}</Link>,
  }));

  return (
    <Layout.Header className="app-header">
      <span className="app-brand">Carryover</span>
      <nav aria-label="Main" className="app-nav">
        <Menu mode="horizontal" selectedKeys={[pathname]} items={items} />
      </nav>
      <Space size="middle" aria-label="Session">
        <FacilitySwitch facilities={facilities} currentFacilityId={facility.id} />
        <Typography.Text className="app-user">
          <UserOutlined /> {fullName(user)}
        </Typography.Text>
        <Button icon={<LogoutOutlined />} onClick={() => void endSession(navigate)}>
          Logout
        </Button>
      </Space>
    </Layout.Header>
  );
}
