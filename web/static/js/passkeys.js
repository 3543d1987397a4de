// Passkeys (WebAuthn): add one to your account, sign in with one. The server hands out the
// options and a challenge id, the browser's authenticator answers, the server verifies.
import { api } from "./client.js";

export const passkeysWork = typeof window.PublicKeyCredential === "function"
  && typeof PublicKeyCredential.parseCreationOptionsFromJSON === "function";

/** Add a passkey to the signed-in account; resolves with the server's answer. */
export async function registerPasskey() {
  const { challenge_id: challengeId, options } = await api("/api/me/passkeys/options", { method: "POST" });
  const credential = await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options) });
  return api("/api/me/passkeys", { method: "POST", body: { challenge_id: challengeId, credential: credential.toJSON() } });
}

/** Sign in with a passkey this browser holds for this site; resolves with {account}. */
export async function signInWithPasskey() {
  const { challenge_id: challengeId, options } = await api("/api/session/passkey/options", { method: "POST" });
  const credential = await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options) });
  return api("/api/session/passkey", { method: "POST", body: { challenge_id: challengeId, credential: credential.toJSON() } });
}
