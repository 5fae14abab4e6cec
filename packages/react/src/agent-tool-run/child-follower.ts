/**
 * The one module `follow.ts` loads on demand: following a child opens a connection to it, so the connection,
 * its parser and a runs store for the child come with this import, and a run card that never follows does not
 * pay for them (docs/protocol.md#drill-in).
 */
export { ChildFollower } from "@runboard/client";
