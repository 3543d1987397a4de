// Every page's header: who is signed in (GET /api/me), with links to your tables and your
// page, and sign-out; or the way to sign in or claim your name. On the lobby, a signed-in
// player's name is the account's (the server seats you under it anyway).
import { api, h, toast } from "./client.js";

const nav = document.getElementById("account-nav");

/** The signed-in account ({id, name, created_at}) or null. */
export const signedIn = api("/api/me").then((me) => me.account).catch(() => null);

function here() {
  return encodeURIComponent(location.pathname + location.search);
}

async function signOut() {
  try {
    await api("/api/session", { method: "DELETE" });
    location.assign(location.pathname === "/me" ? "/" : location.href);
  } catch (err) {
    toast(err.message);
  }
}

async function show() {
  const account = await signedIn;
  if (!nav) return;
  if (!account) {
    nav.replaceChildren(
      h("a", { class: "btn small-btn", href: `/signin?next=${here()}`, id: "signin-link" }, "Sign in"),
      h("a", { class: "small-link", href: `/signin?next=${here()}#claim`, id: "signup-link" }, "Claim your name"));
    return;
  }
  nav.dataset.account = account.name;
  nav.replaceChildren(
    h("a", { class: "account-name", href: `/players/${encodeURIComponent(account.name)}`, title: "Your ratings and matches" }, account.name),
    h("a", { class: "small-link", href: "/me", id: "my-tables-link" }, "Your tables"),
    h("button", { class: "btn small-btn", type: "button", id: "signout", onclick: signOut }, "Sign out"));
  const name = document.getElementById("player-name");
  if (name) {
    name.value = account.name;
    name.readOnly = true;
    name.title = "Signed in: you sit down as your account.";
    name.dispatchEvent(new Event("change"));
  }
}

show();
