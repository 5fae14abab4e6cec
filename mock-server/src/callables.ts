/**
 * `rpc` frames: the definition's own `@callable()` method, else a built-in one. The answer, and each chunk of
 * a streaming callable, goes back to the calling socket only.
 */
import type { RpcRequestFrame, RpcResponseFrame } from "@runboard/protocol";
import type { UIMessage } from "ai";
import { builtinCallable } from "./builtins.ts";
import type { CallableHost } from "./instance-host.ts";
import type { CallableApi, MockAgentDefinition } from "./script.ts";

/** Methods every agent has that are not callable: calling one answers "is not callable", not "does not exist". */
const BUILTIN_METHODS = [
  "onChatMessage",
  "onConnect",
  "onMessage",
  "onStart",
  "setState",
  "saveMessages",
  "broadcast",
];

/** What answering an RPC reads from its instance. */
export interface RpcHost extends CallableHost {
  readonly def: MockAgentDefinition;
  readonly name: string;
  readonly messages: readonly UIMessage[];
}

/** Calls the method `f` names and replies through `reply`; a throwing callable answers its error. */
export async function answerRpc(
  inst: RpcHost,
  f: RpcRequestFrame,
  reply: (frame: RpcResponseFrame) => void,
): Promise<void> {
  const { id, method } = f;
  // Own keys only: `toString` or `constructor` are not callables (an inherited member would answer).
  const own =
    inst.def.callables && Object.hasOwn(inst.def.callables, method) ? inst.def.callables[method] : undefined;
  const spec = own ?? builtinCallable(inst, method);
  if (!spec) {
    const exists = BUILTIN_METHODS.includes(method) || inst.def.methods?.includes(method);
    const error = exists ? `Method ${method} is not callable` : `Method ${method} does not exist`;
    reply({ error, id, success: false, type: "rpc" });
    return;
  }
  const { fn, streaming } = typeof spec === "function" ? { fn: spec, streaming: false } : spec;
  let closed = false;
  const api: CallableApi = {
    name: inst.name,
    get state() {
      return inst.state;
    },
    setState: (s: unknown) => inst.setState(s),
    get messages() {
      return inst.messages;
    },
    send: (chunk: unknown) => {
      if (!streaming || closed) return;
      reply({ done: false, id, result: chunk, success: true, type: "rpc" });
    },
  };
  try {
    const result = await fn(api, ...f.args);
    closed = true;
    reply({ done: true, id, ...(result === undefined ? {} : { result }), success: true, type: "rpc" });
  } catch (e) {
    closed = true;
    const error = e instanceof Error ? e.message : "Unknown error occurred";
    reply({ error, id, success: false, type: "rpc" });
  }
}
