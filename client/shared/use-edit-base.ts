import { useState } from 'react';

/**
 * The version an edit is made from. A screen's record refetches whenever anyone changes it (live
 * updates), so the record's version may move while a form holds what the user typed from an
 * older one; sending the newer version would save over that change unseen. The version is held
 * from when the form opened, and moves on only when told to follow: after the user's own save,
 * or after a conflict said "changed by someone else" and the record was reloaded (21 CFR 11.10(e):
 * a change never silently replaces another).
 */
export function useEditBase(version: number): {
  version: number;
  follow: () => void;
  /**
   * Told to follow and the newer version not here yet (the reload after a conflict is on its
   * way): a save now would be refused again, so forms hold their save button until it arrives.
   */
  settling: boolean;
} {
  const [held, setHeld] = useState(version);
  const [following, setFollowing] = useState(false);
  // Adjusted while rendering (React's pattern for state that follows a prop) rather than in an
  // effect, so a save never reads the old version after the new one arrived.
  if (following && version !== held) {
    setHeld(version);
    setFollowing(false);
  }
  return { version: held, follow: () => setFollowing(true), settling: following };
}
