import type { ReactNode } from 'react';
import { BrandFooter } from './BrandFooter.tsx';

interface AccountLayoutProps {
  title: string;
  subtitle?: string;
  caption?: string;
  children: ReactNode;
}

/**
 * The frame every sign-in and recovery screen shares: brand, card, footer. Plain elements rather
 * than antd Card/Typography: those pull tabs, menus and tooltips into the sign-in bundle.
 */
export function AccountLayout({ title, subtitle, caption, children }: AccountLayoutProps) {
  return (
    <div className="account-page">
      <main className="account-main">
        <div className="account-brand" aria-hidden="true">
          Carryover
        </div>
        <section className="account-card" aria-labelledby="account-title">
          <h1 id="account-title" className="account-title">
            {title}
          </h1>
          {subtitle ? <p className="account-subtitle">{subtitle}</p> : null}
          {caption ? <p className="account-caption">{caption}</p> : null}
          {children}
        </section>
      </main>
      <BrandFooter />
    </div>
  );
}
