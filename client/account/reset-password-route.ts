import { createElement, lazy, type ComponentType } from 'react';

// The set-password screen is a chunk of its own (the sign-in bundle has a size budget), but the
// sign-in screen loads it while it tells the user they are being sent on: once loaded, the route
// renders it at once, so no keystroke lands on a sign-in form that is about to vanish.
let loadedPage: ComponentType | null = null;
let loading: Promise<{ default: ComponentType }> | null = null;

/** Loads the set-password screen's code; the same promise for every caller. */
export function preloadResetPasswordPage(): Promise<{ default: ComponentType }> {
  loading ??= import('./ResetPasswordPage.tsx').then((m) => {
    loadedPage = m.ResetPasswordPage;
    return { default: m.ResetPasswordPage };
  });
  return loading;
}

const LazyResetPasswordPage = lazy(preloadResetPasswordPage);

/** The set-password route: the screen itself when its code is in, else the lazy one. */
export function ResetPasswordRoute() {
  return createElement(loadedPage ?? LazyResetPasswordPage);
}
