/** The hooks the hooks-only app uses, from the kit (the bundle benchmark swaps this file for the official hooks). */
export { useAgent, useAgentChat, useAgentToolEvents } from "@runboard/react";
