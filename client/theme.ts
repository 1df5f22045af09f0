import type { ThemeConfig } from 'antd';

/*
 * Colours chosen for WCAG 2.1 AA (4.5:1 for text). antd's lighter greys (45% and 25% black),
 * its status colours and its preset tags' text shades read below that on white and on their own
 * tinted backgrounds, so the darker shades of the same hues take their place.
 */
export const theme: ThemeConfig = {
  token: {
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
    green7: '#237804',
    lime7: '#3f6600',
    cyan7: '#006d75',
    gold7: '#874d00',
    orange7: '#ad4e00',
    volcano7: '#ad2102',
  },
  components: {
    // The selected entry keeps the brand colour on a light tint of it (2.7:1 on antd's default).
    Menu: { itemSelectedBg: '#e3f0ed', itemSelectedColor: '#0f6b5c' },
  },
};
