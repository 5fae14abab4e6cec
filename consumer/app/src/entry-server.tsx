/**
 * The server entry: what a server framework would import to render the page. Rendering itself (string or
 * stream) is left to the caller, as frameworks do.
 */

export { type PageProps, PROPS_ELEMENT_ID, serializeProps } from "./props.ts";
export { createPage } from "./shell.tsx";
