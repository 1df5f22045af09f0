import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AccountLink, navigateTo, useAccountLocation } from './account-navigation.tsx';

function Where() {
  const { pathname, search } = useAccountLocation();
  return (
    <p>
      at {pathname}
      {search}
    </p>
  );
}

afterEach(() => {
  cleanup();
  window.history.replaceState(null, '', '/');
});

describe('moving between the account screens without the router', () => {
  it('follows a link within the page, adding a history entry, and the browser back again', () => {
    render(
      <>
        <Where />
        <AccountLink to="/forgot-password">Forgot Password?</AccountLink>
      </>,
    );
    const entries = window.history.length;
    fireEvent.click(screen.getByRole('link', { name: 'Forgot Password?' }));
    expect(screen.getByText('at /forgot-password')).toBeTruthy();
    expect(window.history.length).toBe(entries + 1);
    // The browser's Back as the page sees it (the test DOM does not move through its history).
    act(() => {
      window.history.replaceState(null, '', '/');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    expect(screen.getByText('at /')).toBeTruthy();
  });

  it('leaves a ctrl-click to the browser, and replaces the entry when asked', () => {
    render(
      <>
        <Where />
        <AccountLink to="/register">Register</AccountLink>
      </>,
    );
    const link = screen.getByRole('link', { name: 'Register' });
    expect(link.getAttribute('href')).toBe('/register');
    expect(fireEvent.click(link, { ctrlKey: true })).toBe(true);
    expect(screen.getByText('at /')).toBeTruthy();
    const entries = window.history.length;
    act(() => navigateTo({ pathname: '/logout', search: '?token=abc' }, { replace: true }));
    expect(screen.getByText('at /logout?token=abc')).toBeTruthy();
    expect(window.history.length).toBe(entries);
  });
});
