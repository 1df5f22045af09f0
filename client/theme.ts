import type { ThemeConfig } from 'antd';

export const theme: ThemeConfig = {
  token: { colorPrimary: '#0f6b5c', colorLink: '#0f6b5c', borderRadius: 6 },
};
