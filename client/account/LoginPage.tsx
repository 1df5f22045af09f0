import { Button, Form } from 'antd';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { AccountLink, navigateTo, useAccountLocation } from './account-navigation.tsx';
import { isApiError } from '../api/api-error.ts';
import {
  getCurrentUser,
  getFeatures,
  listFacilities,
  logout,
  ssoLoginUrl,
} from '../api/auth-api.ts';
import type { Facility, Features } from '../api/auth-types.ts';
import { showWarning } from '../api/warning-message.ts';
import {
  cacheFeatures,
  clearSession,
  getCachedFeatures,
  getToken,
  setToken,
  storeFacility,
  storeUser,
} from '../session/session-store.ts';
import { loginErrorMessage } from './account-messages.ts';
import { signInAndStore } from './sign-in.ts';
import { AccountLayout } from './AccountLayout.tsx';
import { followUrl } from './follow-url.ts';
import { LoadingSpinner } from './LoadingSpinner.tsx';
import { PasswordInput, TextInput } from './login-inputs.ts';
import { preloadResetPasswordPage } from './reset-password-route.ts';
import { keepRedirectForSso, readLoginQueryAfterSso, searchWithoutToken } from './login-query.ts';

// Only users with several facilities see the accordion: it loads after their login succeeds.
const ChooseFacility = lazy(() =>
  import('./ChooseFacility.tsx').then((m) => ({ default: m.ChooseFacility })),
);

/** Spec §9: the redirect to the change-password screen waits 2 s so the warning can be read. */
export const CHANGE_PASSWORD_REDIRECT_MS = 2000;

type Phase = 'credentials' | 'loading-facilities' | 'choose-facility';

interface Credentials {
  username: string;
  password?: string;
}

export function LoginPage() {
  const navigate = navigateTo;
  const location = useAccountLocation();
  // The query is read once: the token is removed from the address right away.
  const [query] = useState(() => readLoginQueryAfterSso(location.search));
  const [features, setFeatures] = useState<Features | null>(getCachedFeatures);
  const [phase, setPhase] = useState<Phase>(query.sso ? 'loading-facilities' : 'credentials');
  const [facilities, setFacilities] = useState<Facility[]>([]);
  const [isSubmitting, setSubmitting] = useState(false);
  const redirectTimer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(redirectTimer.current), []);

  function chooseFacility(facility: Facility): void {
    // Both updates land in one render, so the account routes never see the new path.
    const target = query.redirect?.facilityId === facility.id ? query.redirect.path : '/';
    if (target !== location.pathname) void navigate(target, { replace: true });
    storeFacility(facility);
  }

  // The credentials form stays mounted while facilities load (its button spins), so a failure
  // here leaves what the user typed in place.
  async function continueToFacilities(planId: number, sso: boolean): Promise<void> {
    try {
      const { facilities: granted } = await listFacilities(planId, { sso });
      const requested = granted.find((f) => f.id === query.redirect?.facilityId);
      const chosen = requested ?? (granted.length === 1 ? granted[0] : undefined);
      if (chosen) {
        chooseFacility(chosen);
      } else if (granted.length === 0) {
        showWarning('No facility has been assigned to you. Please contact your administrator.');
        clearSession();
        setPhase('credentials');
      } else {
        setFacilities(granted);
        setPhase('choose-facility');
      }
    } catch (error) {
      // 401/419 have already warned and cleared the session; say something for the rest.
      if (!isApiError(error) || (error.status !== 401 && error.status !== 419)) {
        showWarning(isApiError(error) ? error.message : loginErrorMessage(error));
        // No half sign-in: without a facility the token is of no use, so the user starts over.
        clearSession();
      }
      setPhase('credentials');
    }
  }

  // Runs once per visit; effects run twice in development, and everything here is idempotent.
  useEffect(() => {
    let isCurrent = true;
    if (query.token) {
      setToken(query.token);
      void navigate(
        { pathname: location.pathname, search: searchWithoutToken(location.search) },
        { replace: true },
      );
    }
    if (query.error) showWarning(query.error);
    getFeatures()
      .catch(
        (): Features => getCachedFeatures() ?? { SSO: false, SSOProvider: null, logoutUrl: null },
      )
      .then(async (loaded) => {
        cacheFeatures(loaded);
        if (!isCurrent) return;
        setFeatures(loaded);
        if (query.sso && loaded.SSO && getToken()) {
          // SSO: the provider vouched for the user; fetch who they are, then their facilities.
          const user = await getCurrentUser();
          storeUser(user);
          if (isCurrent) await continueToFacilities(user.planId, true);
        } else if (isCurrent) {
          setPhase('credentials');
        }
      })
      .catch(() => isCurrent && setPhase('credentials'));
    return () => {
      isCurrent = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per visit, by design
  }, []);

  async function onFinish({ username, password }: Credentials): Promise<void> {
    const id = username.trim();
    if (features?.SSO) {
      keepRedirectForSso(query.redirect);
      window.location.assign(ssoLoginUrl(features.SSOProvider ?? 'azure', id));
      return;
    }
    setSubmitting(true);
    try {
      const response = await signInAndStore(id, password ?? '');
      await continueToFacilities(response.user.planId, false);
    } catch (error) {
      showWarning(loginErrorMessage(error));
      if (
        isApiError(error) &&
        (error.errName === 'ChangePasswordOnFirstLogin' ||
          error.errName === 'ChangePasswordOnPasswordExpiry')
      ) {
        const url = error.message;
        // The next screen's code loads during the wait, so it replaces this form at once.
        const pageCode = preloadResetPasswordPage().catch(() => undefined);
        redirectTimer.current = window.setTimeout(
          () => void pageCode.then(() => followUrl(url, navigate)),
          CHANGE_PASSWORD_REDIRECT_MS,
        );
      }
    } finally {
      setSubmitting(false);
    }
  }

  async function signInAsSomeoneElse(): Promise<void> {
    const token = getToken();
    clearSession();
    setFacilities([]);
    setPhase('credentials');
    await logout(token).catch(() => undefined);
  }

  if (phase === 'loading-facilities' || features === null) {
    return (
      <AccountLayout title="Welcome User">
        <LoadingSpinner label={phase === 'loading-facilities' ? 'Signing in' : 'Loading'} />
      </AccountLayout>
    );
  }

  if (phase === 'choose-facility') {
    return (
      <AccountLayout title="Choose Facility" subtitle="Select the facility you want to work in">
        <Suspense fallback={<LoadingSpinner label="Loading facilities" />}>
          <ChooseFacility facilities={facilities} onChoose={chooseFacility} />
        </Suspense>
        <Button type="link" className="account-secondary" onClick={signInAsSomeoneElse}>
          Sign in as a different user
        </Button>
      </AccountLayout>
    );
  }

  const isSso = Boolean(features.SSO);
  return (
    <AccountLayout
      title="Welcome User"
      subtitle="Provide your credentials below to login"
      caption="Cleaning Validation Risk Management Platform"
    >
      <Form<Credentials> layout="vertical" requiredMark={false} onFinish={onFinish}>
        <Form.Item
          label="Email/Employee ID"
          name="username"
          validateTrigger="onBlur"
          rules={[{ required: true, whitespace: true, message: 'Please input your E-mail!' }]}
        >
          <TextInput autoComplete="username" autoFocus />
        </Form.Item>
        {isSso ? null : (
          <Form.Item
            label="Password"
            name="password"
            rules={[{ required: true, message: 'Please input your Password!' }]}
          >
            <PasswordInput autoComplete="current-password" />
          </Form.Item>
        )}
        <Button type="primary" htmlType="submit" block loading={isSubmitting}>
          Log In
        </Button>
      </Form>
      <nav className="account-links" aria-label="Account">
        <AccountLink to="/forgot-password">Forgot Password?</AccountLink>
        {isSso ? null : <AccountLink to="/register">Register</AccountLink>}
      </nav>
    </AccountLayout>
  );
}
