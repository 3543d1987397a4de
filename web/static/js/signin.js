// /signin: sign in with a password or a passkey, or claim a name (a new account). Then back
// to the page that sent you here (?next=), or to your tables.
import { api, toast } from "./client.js";
import { passkeysWork, signInWithPasskey } from "./passkeys.js";

const $ = (id) => document.getElementById(id);

function next() {
  const wanted = new URLSearchParams(location.search).get("next") || "/me";
  return wanted.startsWith("/") && !wanted.startsWith("//") ? wanted : "/me";
}

function handle(form, send) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = form.querySelector("button[type=submit]");
    const error = form.querySelector(".form-error");
    button.disabled = true;
    error.textContent = "";
    try {
      await send(new FormData(form));
      location.assign(next());
    } catch (err) {
      error.textContent = err.message;
      button.disabled = false;
    }
  });
}

handle($("signin-form"), (data) => api("/api/session", { method: "POST", body: { name: data.get("name"), password: data.get("password") } }));
handle($("signup-form"), (data) => {
  if (data.get("password") !== data.get("again")) return Promise.reject(new Error("The two passwords differ."));
  return api("/api/accounts", { method: "POST", body: { name: data.get("name"), password: data.get("password") } });
});

const passkey = $("passkey-signin");
passkey.hidden = !passkeysWork;
passkey.addEventListener("click", async () => {
  passkey.disabled = true;
  try {
    await signInWithPasskey();
    location.assign(next());
  } catch (err) {
    toast(err.name === "NotAllowedError" ? "The passkey was not used." : err.message);
    passkey.disabled = false;
  }
});
if (location.hash === "#claim") $("signup-name").focus();
