import type { closeWarning, openWarning } from './warning-toast.ts';

// antd's message (and the notification machinery under it) loads with the first warning rather
// than with the Login screen: it keeps the sign-in bundle small. Warnings keep their order.
let toast: Promise<{ openWarning: typeof openWarning; closeWarning: typeof closeWarning }> | null =
  null;

export function showWarning(content: string, durationSeconds = 4): void {
  toast ??= import('./warning-toast.ts');
  void toast.then((module) => module.openWarning(content, durationSeconds));
}

/** A warning that no longer holds (a failed sign-in, once the next one succeeded) goes at once. */
export function hideWarning(): void {
  void toast?.then((module) => module.closeWarning());
}
