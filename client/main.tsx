import { ConfigProvider } from 'antd';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { resumeEndedSession } from './account/sign-in-again.ts';
import { Root } from './Root.tsx';
import { theme } from './theme.ts';
import './styles.css';

// antd's static message and notification render outside this tree: give them the same theme.
ConfigProvider.config({
  holderRender: (children) => <ConfigProvider theme={theme}>{children}</ConfigProvider>,
});

// Before the router reads the address: a reloaded page whose session ended becomes the Login screen.
resumeEndedSession();

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <ConfigProvider theme={theme}>
      <Root />
    </ConfigProvider>
  </StrictMode>,
);
