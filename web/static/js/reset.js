// /reset#<token>: choose a new password with the one-time link the server's operator printed.
import { api } from "./client.js";

const form = document.getElementById("reset-form");
const token = location.hash.slice(1);
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const data = new FormData(form);
  const error = form.querySelector(".form-error");
  error.textContent = "";
  if (data.get("password") !== data.get("again")) {
    error.textContent = "The two passwords differ.";
    return;
  }
  try {
    await api("/api/accounts/reset", { method: "POST", body: { token, password: data.get("password") } });
    location.assign("/me");
  } catch (err) {
    error.textContent = err.message;
  }
});
if (!token) form.querySelector(".form-error").textContent = "This page needs the whole link you were given.";
