import type { ThemeConfig } from 'antd';

/*
 * Colours chosen for WCAG 2.1 AA (4.5:1 for text). antd's lighter greys (45% and 25% black) and
 * its status colours read below that on white and on their own tinted backgrounds, so darker
 * shades of the same hues take their place (the preset tags' text: styles.css).
 */
/** Read once at start: a change of the setting applies from the next page load. */
const reducedMotion =
  typeof window !== 'undefined' &&
  window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true;

export const theme: ThemeConfig = {
  token: {
    // Drawers, dialogs and menus open without sliding or fading for whoever asks the system
    // for less motion (WCAG 2.3.3).
    motion: !reducedMotion,
    colorPrimary: '#0f6b5c',
    colorLink: '#0f6b5c',
    borderRadius: 6,
    colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
    colorTextDescription: 'rgba(0, 0, 0, 0.6)',
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.56)',
    colorSuccess: '#237804',
    colorWarning: '#ad4e00',
    colorError: '#cf1322',
    colorInfo: '#0958d9',
    // Tints of the darker status colours would be muddy: the light backgrounds stay antd's.
    colorSuccessBg: '#f6ffed',
    colorSuccessBorder: '#b7eb8f',
    colorWarningBg: '#fff7e6',
    colorWarningBorder: '#ffd591',
    colorErrorBg: '#fff2f0',
    colorErrorBorder: '#ffccc7',
    colorInfoBg: '#e6f4ff',
    colorInfoBorder: '#91caff',
  },
  components: {
    // The selected entry keeps the brand colour on a light tint of it (2.7:1 on antd's default).
    Menu: { itemSelectedBg: '#e3f0ed', itemSelectedColor: '#0f6b5c' },
  },
};
