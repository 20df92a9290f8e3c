const signInListeners = new Set<() => void>();

/** Runs `listener` whenever a user signs in; returns the unsubscribe. */
export function onSignIn(listener: () => void): () => void {
  signInListeners.add(listener);
  return () => void signInListeners.delete(listener);
}

/** A user signed in: nothing cached for an earlier session may leak into this one. */
export function signedIn(): void {
  for (const listener of signInListeners) listener();
}
