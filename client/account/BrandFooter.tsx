/** Client version string of spec §9. */
export const CLIENT_VERSION = '5.0';

export function BrandFooter() {
  return (
    <footer className="account-footer">
      Carryover · version {CLIENT_VERSION} · © {new Date().getFullYear()}
    </footer>
  );
}
