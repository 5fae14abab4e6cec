/**
 * `useAgent<AgentClass, State>` types `call` and `stub` as the official hook does: the same methods offered (own
 * methods whose arguments and result travel as JSON; a streaming method without its stream), the same
 * arguments and the same promised results. Compared with the official types on an agent with every kind of
 * method, and the list of inherited `Agent` members with the installed `agents` package.
 */

import type { AgentBaseMember, AgentMethods } from "@runboard/client";
import type { Agent, StreamingResponse } from "agents";
import type { useAgent as officialUseAgent } from "agents/react";
import { expectTypeOf, test } from "vitest";
import type { useAgent } from "./index.ts";

type State = { n: number };

/** Every kind of method a client may or may not call (a plain class: the comparison needs no Workers types). */
declare class Kinds {
  state: State;
  count: number;
  plain(a: string, b?: number): string;
  optional(a?: string): number;
  none(): void;
  promised(id: string): Promise<{ ok: boolean; items: string[] }>;
  unknownResult(): Promise<unknown>;
  nested(o: { a: { b: { c: string[] } }; when?: string }): { tags: Record<string, number> };
  union(v: string | null): "a" | "b";
  tuple(t: [number, string]): [boolean];
  dateArg(d: Date): void;
  dateResult(): Date;
  mapInside(o: { m: Map<string, number> }): void;
  fnArg(cb: () => void): void;
  bigintResult(): bigint;
  streaming(stream: StreamingResponse, q: string): void;
  streamingOnly(stream: StreamingResponse): void;
}

type Ours = ReturnType<typeof useAgent<Kinds, State>>;
type Official = ReturnType<typeof officialUseAgent<Kinds, State>>;

test("the same methods are offered", () => {
  expectTypeOf<keyof Ours["stub"]>().toEqualTypeOf<keyof Official["stub"]>();
  expectTypeOf<keyof Ours["stub"]>().toEqualTypeOf<
    | "plain"
    | "optional"
    | "none"
    | "promised"
    | "unknownResult"
    | "nested"
    | "union"
    | "tuple"
    | "streaming"
    | "streamingOnly"
  >();
});

test("each method takes the same arguments and promises the same result", () => {
  type Same<K extends keyof Ours["stub"] & keyof Official["stub"]> = [
    Parameters<Ours["stub"][K]>,
    Awaited<ReturnType<Ours["stub"][K]>>,
  ];
  type Theirs<K extends keyof Ours["stub"] & keyof Official["stub"]> = [
    Parameters<Official["stub"][K]>,
    Awaited<ReturnType<Official["stub"][K]>>,
  ];
  expectTypeOf<Same<"plain">>().toEqualTypeOf<Theirs<"plain">>();
  expectTypeOf<Same<"optional">>().toEqualTypeOf<Theirs<"optional">>();
  expectTypeOf<Same<"none">>().toEqualTypeOf<Theirs<"none">>();
  expectTypeOf<Same<"promised">>().toEqualTypeOf<Theirs<"promised">>();
  expectTypeOf<Same<"unknownResult">>().toEqualTypeOf<Theirs<"unknownResult">>();
  expectTypeOf<Same<"nested">>().toEqualTypeOf<Theirs<"nested">>();
  expectTypeOf<Same<"union">>().toEqualTypeOf<Theirs<"union">>();
  expectTypeOf<Same<"tuple">>().toEqualTypeOf<Theirs<"tuple">>();
  expectTypeOf<Same<"streaming">>().toEqualTypeOf<Theirs<"streaming">>();
  expectTypeOf<Same<"streamingOnly">>().toEqualTypeOf<Theirs<"streamingOnly">>();
});

test("call refuses what the official call refuses", () => {
  const agent = {} as Ours;
  expectTypeOf(agent.call("plain", ["x"])).toEqualTypeOf<Promise<string>>();
  expectTypeOf(agent.call("optional")).toEqualTypeOf<Promise<number>>();
  // @ts-expect-error not a method of the agent
  void agent.call("count");
  // @ts-expect-error a Date cannot travel as JSON
  void agent.call("dateArg", [new Date()]);
  // @ts-expect-error required arguments
  void agent.call("plain");
  // @ts-expect-error an untyped name
  void agent.call("plain" as string, []);
});

test("every member an agent inherits from the installed `Agent` class is left out", () => {
  // biome-ignore lint/suspicious/noExplicitAny: the official types read the base class as `Agent<any, any>`
  type Inherited = keyof Agent<any, any>;
  expectTypeOf<Exclude<Inherited, AgentBaseMember>>().toEqualTypeOf<never>();
  expectTypeOf<
    keyof AgentMethods<{ setState(s: State): void; schedule(): void; mine(): void }>
  >().toEqualTypeOf<"mine">();
});
