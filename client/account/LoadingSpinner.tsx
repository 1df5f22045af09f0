/**
 * The spinner of the account screens, in CSS: antd's Spin would add its code to the sign-in
 * bundle for one animation.
 */
export function LoadingSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="loading-spinner" role="status" aria-live="polite" aria-label={label}>
      <span className="loading-spinner-ring" aria-hidden="true" />
    </div>
  );
}
