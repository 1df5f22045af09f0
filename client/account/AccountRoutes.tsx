import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
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
export function AccountRoutes() {
  return (
    <Suspense fallback={<LoadingSpinner />}>
      <Routes>
        <Route path="/" element={<LoginPage />} />
        <Route path="/sign-in" element={<LoginPage />} />
        <Route path="/logout" element={<LogoutPage />} />
        <Route path="/forgot-password" element={<ForgotPasswordPage />} />
        <Route path="/reset-password" element={<ResetPasswordRoute />} />
        <Route path="/reset-password-expired" element={<ResetPasswordExpiredPage />} />
        <Route path="/register" element={<RegisterPage />} />
        <Route path="*" element={<Navigate to="/" replace />} />
      </Routes>
    </Suspense>
  );
}
