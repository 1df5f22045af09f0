import { login } from '../api/auth-api.ts';
import type { LoginResponse } from '../api/auth-types.ts';
import { hideWarning } from '../api/warning-message.ts';
import { announceSignIn } from '../session/session-channel.ts';
import { storeLogin } from '../session/session-store.ts';

/**
 * Signs in and makes the answer this tab's session: the warning of a failed attempt no longer
 * holds, and the user's other tabs take the new token (the old one has just ended).
 */
export async function signInAndStore(username: string, password: string): Promise<LoginResponse> {
  const response = await login(username, password);
  hideWarning();
  storeLogin(response);
  announceSignIn(response.user.id);
  return response;
}
