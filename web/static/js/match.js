// The match page: everything lives in the shared client.
import { startMatchPage } from "./client.js";

startMatchPage(document.getElementById("match"));
