import "./styles/global.css";
import "./styles/components.css";
import "./styles/frame.css";
import "./styles/forms.css";
import { StrictMode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { App } from "./app/App";
import { readPageData } from "./app/page-data";

const data = readPageData(
  document.getElementById("agora-data")?.textContent,
  window.location.pathname + window.location.search,
  window.location.origin,
);
const root = document.getElementById("root");
if (!root) throw new Error("#root is missing from the page");

const app = (
  <StrictMode>
    <App data={data} />
  </StrictMode>
);

// The app serves an empty shell (no server markup) when the renderer is down.
if (root.firstElementChild) hydrateRoot(root, app);
else createRoot(root).render(app);
