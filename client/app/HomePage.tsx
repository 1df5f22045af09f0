import { Typography } from 'antd';
import type { Facility, LoginUser } from '../api/auth-types.ts';
import { DashboardPage } from '../features/dashboard/DashboardPage.tsx';
import { fullName } from './AppHeader.tsx';

interface HomePageProps {
  user: LoginUser;
  facility: Facility;
}

/** Home is the facility's dashboard (issue 13). */
export function HomePage({ user, facility }: HomePageProps) {
  return (
    <>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 4 }}>
        Welcome, {fullName(user)}
      </Typography.Paragraph>
      <DashboardPage facility={facility} />
    </>
  );
}
