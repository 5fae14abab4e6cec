/**
 * The browser entry: hydrates the server's HTML with the props the server rendered it with, or renders from
 * scratch when the page came without server markup (a client-only deployment of the same app).
 */
import { createRoot, hydrateRoot } from "react-dom/client";
import { type PageProps, PROPS_ELEMENT_ID } from "./props.ts";
import { createPage } from "./shell.tsx";

const root = document.getElementById("root");
const propsText = document.getElementById(PROPS_ELEMENT_ID)?.textContent;
if (!root || !propsText) throw new Error("the page has no #root or no props");
const props = JSON.parse(propsText) as PageProps;

if (root.hasChildNodes())
  hydrateRoot(root, createPage(props), {
    // Hydration mismatches end up here; say so loudly, as a developer would want to see them.
    onRecoverableError: (error, info) => {
      console.error("Recoverable error while hydrating:", error, info.componentStack ?? "");
    },
  });
else createRoot(root).render(createPage(props));
