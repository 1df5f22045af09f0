import {
  LogoutOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Button, Layout, Space, Typography } from 'antd';
import { useNavigate } from 'react-router';
import type { Facility, LoginUser } from '../api/auth-types.ts';
import { endSession } from '../account/LogoutPage.tsx';
import { FeedbackButton } from '../features/feedback/FeedbackButton.tsx';
import { FacilitySwitch } from './FacilitySwitch.tsx';
import { MAIN_MENU_ID } from './AppSideNav.tsx';

interface AppHeaderProps {
  user: LoginUser;
  facility: Facility;
  facilities: Facility[];
  isMenuCollapsed: boolean;
  onToggleMenu: () => void;
}

export function fullName(user: LoginUser): string {
  return [user.firstName, user.lastName].filter(Boolean).join(' ') || user.username;
}

export function AppHeader(props: AppHeaderProps) {
  const { user, facility, facilities, isMenuCollapsed } = props;
  const navigate = useNavigate();

  return (
    <Layout.Header className="app-header">
      {/* In the header, not on the menu's edge, where it covered the screen's title. */}
      <Button
        type="text"
        icon={isMenuCollapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
        aria-label={isMenuCollapsed ? 'Show the menu' : 'Hide the menu'}
        aria-expanded={!isMenuCollapsed}
        aria-controls={MAIN_MENU_ID}
        onClick={props.onToggleMenu}
      />
      <span className="app-brand">Carryover</span>
      <span className="app-header-gap" />
      <Space size="middle" aria-label="Session">
        <FacilitySwitch facilities={facilities} currentFacilityId={facility.id} />
        <FeedbackButton />
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
