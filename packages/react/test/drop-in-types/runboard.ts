// The imports an app changes when it switches: `agents/react`, `@cloudflare/ai-chat/react` and
// `@cloudflare/think/react` all become `@runboard/react` (tsconfig.runboard.json maps them here).
export * from "@runboard/react";
