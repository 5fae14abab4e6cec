/**
 * What the server hands the page, serialised into the HTML so the browser hydrates the same tree: where the
 * agent is, and the clock the fixture data is built from (a page must not read the clock while rendering).
 */
export interface PageProps {
  /** `host:port` of the agent server. */
  agentHost: string;
  /** Instance name of the chat agent. */
  agentName: string;
  /** Epoch ms of the server render; the fixture runs, milestones and approvals are placed around it. */
  now: number;
  /** Origin that serves the pretend Live View pages (this app's own server). */
  liveViewOrigin: string;
}

/** The id of the `<script type="application/json">` element that carries the props. */
export const PROPS_ELEMENT_ID = "page-props";

/** The props as a script element's text: `<` escaped so no string can close the element. */
export function serializeProps(props: PageProps): string {
  return JSON.stringify(props).replace(/</g, "\\u003c");
}
