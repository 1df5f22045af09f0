import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { navigateTo, useAccountLocation } from './account-navigation.tsx';
import { LoadingSpinner } from './LoadingSpinner.tsx';
import { LoginPage } from './LoginPage.tsx';
import { LogoutPage } from './LogoutPage.tsx';
import { ResetPasswordRoute } from './reset-password-route.ts';

// Recovery and registration screens are their own chunks, so the Login screen stays small.
const ForgotPasswordPage = lazy(() =>
  import('./ForgotPasswordPage.tsx').then((m) => ({ default: m.ForgotPasswordPage })),
);
const ResetPasswordExpiredPage = lazy(() =>
  import('./ResetPasswordExpiredPage.tsx').then((m) => ({ default: m.ResetPasswordExpiredPage })),
);
const RegisterPage = lazy(() =>
  import('./RegisterPage.tsx').then((m) => ({ default: m.RegisterPage })),
);

/** The route table of spec §2, exactly. */
const SCREENS: Record<string, () => ReactNode> = {
  '/': () => <LoginPage />,
  '/sign-in': () => <LoginPage />,
  '/logout': () => <LogoutPage />,
  '/forgot-password': () => <ForgotPasswordPage />,
  '/reset-password': () => <ResetPasswordRoute />,
  '/reset-password-expired': () => <ResetPasswordExpiredPage />,
  '/register': () => <RegisterPage />,
};

export function AccountRoutes() {
  // As the router matched them: any case, with or without a closing slash.
  const pathname = useAccountLocation()
    .pathname.toLowerCase()
    .replace(/(.)\/+$/, '$1');
  const screen = SCREENS[pathname];
  return <Suspense fallback={<LoadingSpinner />}>{screen ? screen() : <ToSignIn />}</Suspense>;
}

/** Any other address while signed out: the Login screen, at its own address. */
function ToSignIn() {
  useEffect(() => navigateTo('/', { replace: true }), []);
  return null;
}
