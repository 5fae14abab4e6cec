/**
 * Drop-in check: every option and return value of the official hooks exists here under the same name, so an
 * app switches by changing imports. A new upstream option fails this file until it is handled.
 */
import type {
  UseAgentChatOptions as OfficialChatOptions,
  useAgentChat as officialUseAgentChat,
} from "@cloudflare/ai-chat/react";
import type { UseAgentOptions as OfficialAgentOptions, useAgent as officialUseAgent } from "agents/react";
import { expectTypeOf, test } from "vitest";
import type { UseAgentChatOptions, UseAgentChatResult, UseAgentOptions, useAgent } from "./index.ts";

test("useAgent takes every official option", () => {
  expectTypeOf<Exclude<keyof OfficialAgentOptions<unknown>, keyof UseAgentOptions>>().toEqualTypeOf<never>();
});

test("useAgentChat takes every official option and returns every official field", () => {
  expectTypeOf<
    Exclude<keyof OfficialChatOptions<unknown>, keyof UseAgentChatOptions>
  >().toEqualTypeOf<never>();
  expectTypeOf<
    Exclude<keyof ReturnType<typeof officialUseAgentChat>, keyof UseAgentChatResult>
  >().toEqualTypeOf<never>();
});

test("useAgent returns the official fields the issue names", () => {
  type Ours = ReturnType<typeof useAgent>;
  type Named =
    | "agent"
    | "name"
    | "state"
    | "setState"
    | "call"
    | "stub"
    | "send"
    | "close"
    | "reconnect"
    | "addEventListener"
    | "removeEventListener"
    | "identified"
    | "ready"
    | "path"
    | "shouldReconnect";
  expectTypeOf<Exclude<Named, keyof Ours>>().toEqualTypeOf<never>();
  expectTypeOf<Extract<Named, keyof ReturnType<typeof officialUseAgent>>>().toEqualTypeOf<Named>();
});
