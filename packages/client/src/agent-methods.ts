/**
 * Types of `call` and `stub` from an agent class, as the official client types them: `useAgent<MyAgent, State>`
 * offers the agent's own methods whose arguments and result travel as JSON, checks their arguments, and
 * promises their result. Without a class (or for one without such methods) both are untyped. Types only.
 */
import type { CallOptions, StreamCallbacks } from "./agent-client-types.ts";

/**
 * The members every agent inherits from the `agents` `Agent` class (0.32) and its `DurableObject` base: not
 * offered by a typed `call` or `stub`, as upstream leaves them out. A test compares the list with the
 * installed `agents` package.
 */
export type AgentBaseMember =
  | "webSocketMessage"
  | "webSocketClose"
  | "webSocketError"
  | "lifecycle"
  | "_state"
  | "onStart"
  | "onRequest"
  | "onConnect"
  | "onMessage"
  | "onClose"
  | "getConnectionTags"
  | "__unsafe_ensureInitialized"
  | "_keepAliveRefs"
  | "dynamicAgents"
  | "scheduler"
  | "tasks"
  | "taskDefinitions"
  | "mcp"
  | "initialState"
  | "sessionAffinity"
  | "state"
  | "observability"
  | "sql"
  | "setState"
  | "setConnectionReadonly"
  | "isConnectionReadonly"
  | "_unsafe_getConnectionFlag"
  | "_unsafe_setConnectionFlag"
  | "shouldConnectionBeReadonly"
  | "shouldSendProtocolMessages"
  | "isConnectionProtocolEnabled"
  | "validateStateChange"
  | "onStateChanged"
  | "onStateUpdate"
  | "_onEmail"
  | "replyToEmail"
  | "sendEmail"
  | "onError"
  | "render"
  | "retry"
  | "queue"
  | "dequeue"
  | "dequeueAll"
  | "dequeueAllByCallback"
  | "getQueue"
  | "getQueues"
  | "fetchInternalHost"
  | "_cf_routeLifecycle"
  | "_cf_cleanupFacetPrefix"
  | "_cf_acquireFacetKeepAlive"
  | "_cf_releaseFacetKeepAlive"
  | "_cf_registerFacetRun"
  | "_cf_unregisterFacetRun"
  | "schedule"
  | "scheduleEvery"
  | "getSchedule"
  | "getScheduleById"
  | "getSchedules"
  | "listSchedules"
  | "cancelSchedule"
  | "keepAlive"
  | "keepAliveWhile"
  | "inspectFiber"
  | "inspectFiberByKey"
  | "listFibers"
  | "cancelFiber"
  | "cancelFiberByKey"
  | "resolveFiber"
  | "deleteFibers"
  | "runFiber"
  | "startFiber"
  | "stash"
  | "onFiberRecovered"
  | "_onAlarmHousekeeping"
  | "_cf_checkRunFibersForFacet"
  | "_cf_invokeAgentPath"
  | "_cf_destroyDescendantFacet"
  | "onAlarm"
  | "onJob"
  | "alarm"
  | "fetch"
  | "broadcast"
  | "getConnection"
  | "getConnections"
  | "_cf_broadcastToSubAgent"
  | "_cf_subAgentConnectionMetas"
  | "_cf_sendToSubAgentConnection"
  | "_cf_closeSubAgentConnection"
  | "_cf_closeSubAgentConnectionsForPrefix"
  | "_cf_setSubAgentConnectionState"
  | "_cf_handleSubAgentWebSocketConnect"
  | "_cf_handleSubAgentWebSocketMessage"
  | "_cf_handleSubAgentWebSocketClose"
  | "onBeforeSubAgent"
  | "_cf_invokeSubAgent"
  | "_cf_invokeSubAgentPath"
  | "_cf_initAsFacet"
  | "name"
  | "parentPath"
  | "selfPath"
  | "parentAgent"
  | "subAgent"
  | "maxConcurrentAgentTools"
  | "onAgentToolStart"
  | "onAgentToolFinish"
  | "onProgress"
  | "reportProgress"
  | "runAgentTool"
  | "cancelAgentTool"
  | "_cfDetachedReconcileTick"
  | "hasAgentToolRun"
  | "clearAgentToolRuns"
  | "abortSubAgent"
  | "deleteSubAgent"
  | "hasSubAgent"
  | "listSubAgents"
  | "destroy"
  | "_cf_scheduleDestroy"
  | "getCallableMethods"
  | "runWorkflow"
  | "sendWorkflowEvent"
  | "approveWorkflow"
  | "rejectWorkflow"
  | "terminateWorkflow"
  | "pauseWorkflow"
  | "resumeWorkflow"
  | "restartWorkflow"
  | "getWorkflowStatus"
  | "getWorkflow"
  | "getWorkflows"
  | "deleteWorkflow"
  | "deleteWorkflows"
  | "migrateWorkflowBinding"
  | "onWorkflowCallback"
  | "onWorkflowProgress"
  | "onWorkflowComplete"
  | "onWorkflowError"
  | "onWorkflowEvent"
  | "_workflow_handleCallback"
  | "_workflow_broadcast"
  | "_workflow_updateState"
  | "addMcpServer"
  | "removeMcpServer"
  | "getMcpServers"
  | "createMcpOAuthProvider";

// Values JSON cannot carry: a method taking or returning one is not callable from a client.
type NotJson =
  // biome-ignore lint/complexity/noBannedTypes: any function
  | Function
  | symbol
  | bigint
  | Date
  | RegExp
  | Map<unknown, unknown>
  | Set<unknown>
  | WeakMap<object, unknown>
  | WeakSet<object>
  | Error
  | ArrayBuffer
  | SharedArrayBuffer
  | ArrayBufferView;

/** One less, for the depth limit (deeper values are taken as they are, as upstream's limit of 10). */
type Less = [0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9];

/** `true` when `T` travels as JSON: `false` (or `boolean`, for a union with a part that does not) otherwise. */
type Json<T, Seen = never, D extends number = 10> = D extends 0
  ? true
  : T extends Seen
    ? true
    : T extends string | number | boolean | null | undefined
      ? true
      : T extends NotJson
        ? false
        : T extends readonly (infer U)[]
          ? Json<U, Seen | T, Less[D]>
          : T extends object
            ? unknown extends T
              ? true
              : false extends { [K in keyof T]-?: Json<T[K], Seen | T, Less[D]> }[keyof T]
                ? false
                : true
            : true;

type AllJson<A extends unknown[]> = A extends [infer First, ...infer Rest]
  ? [Json<First>] extends [true]
    ? AllJson<Rest>
    : false
  : true;

/** What a streaming method (`@callable({ streaming: true })`) gets first: the server's stream, not sent. */
interface ServerStream {
  send(chunk: unknown): boolean;
  end(finalChunk?: unknown): boolean;
  error(message: string): boolean;
}

/** A method's arguments as a client passes them (a streaming method's stream left out). */
type ClientArgs<F> = F extends (...args: infer A) => unknown
  ? A extends [ServerStream, ...infer Rest]
    ? Rest
    : A
  : never;

type Callable<F> = F extends (...args: infer A) => infer R
  ? [AllJson<ClientArgs<F>>] extends [true]
    ? A extends [ServerStream, ...unknown[]]
      ? true
      : [Json<Awaited<R>>] extends [true]
        ? true
        : unknown extends Awaited<R>
          ? true
          : false
    : false
  : false;

/**
 * The methods of `AgentT` a client may call: its own (not those of the `Agent` base class) whose arguments and
 * result travel as JSON. Streaming methods count, without their stream argument.
 */
export type AgentMethods<AgentT> = {
  [K in keyof AgentT as K extends AgentBaseMember
    ? never
    : K extends string
      ? Callable<AgentT[K]> extends true
        ? K
        : never
      : never]: AgentT[K];
};

type AllOptional<A extends unknown[]> = A extends [infer First, ...infer Rest]
  ? undefined extends First
    ? AllOptional<Rest>
    : false
  : true;

/** What calling method `K` resolves with: its result, awaited. */
export type AgentCallResult<AgentT, K extends keyof AgentMethods<AgentT>> = Promise<
  Awaited<AgentMethods<AgentT>[K] extends (...a: never[]) => infer R ? R : never>
>;

type OptionalArgsMethod<AgentT> = {
  [K in keyof AgentMethods<AgentT>]: AllOptional<ClientArgs<AgentMethods<AgentT>[K]>> extends true
    ? K
    : never;
}[keyof AgentMethods<AgentT>];

/** The per-call options of `call`: streaming callbacks and a timeout, in either official form. */
export type AgentCallOptions = CallOptions | StreamCallbacks;

/**
 * `call` of a typed agent: only its methods, with their arguments (the argument list may be left out when every
 * argument is optional) and their promised result.
 */
export type TypedAgentCall<AgentT> = (<K extends OptionalArgsMethod<AgentT>>(
  method: K,
  args?: ClientArgs<AgentMethods<AgentT>[K]>,
  options?: AgentCallOptions,
) => AgentCallResult<AgentT, K>) &
  (<K extends Exclude<keyof AgentMethods<AgentT>, OptionalArgsMethod<AgentT>>>(
    method: K,
    args: ClientArgs<AgentMethods<AgentT>[K]>,
    options?: AgentCallOptions,
  ) => AgentCallResult<AgentT, K>);

/** `call` without an agent type: any method name, the result typed by the caller (`call<number>(…)`). */
export type UntypedAgentCall = <T = unknown>(
  method: string,
  args?: unknown[],
  options?: AgentCallOptions,
) => Promise<T>;

/** `stub` of a typed agent: `stub.method(...args)` ≡ `call("method", [...args])`. */
export type TypedAgentStub<AgentT> = {
  [K in keyof AgentMethods<AgentT>]: (
    ...args: ClientArgs<AgentMethods<AgentT>[K]>
  ) => AgentCallResult<AgentT, K>;
};

// biome-ignore lint/suspicious/noExplicitAny: upstream's untyped stub resolves with `any`, and apps rely on it
type AnyResult = any;

/**
 * `stub` without an agent type: any name, any arguments; the result is the caller's to type, as upstream's
 * (`const n: number = await agent.stub.count()`).
 */
export type UntypedAgentStub = Record<string, (...args: unknown[]) => Promise<AnyResult>>;

/** Typed when `AgentT` has methods a client can call, untyped otherwise (no type, `unknown`, an index type). */
export type AgentStub<AgentT> = string extends keyof AgentT
  ? UntypedAgentStub
  : keyof AgentMethods<AgentT> extends never
    ? UntypedAgentStub
    : TypedAgentStub<AgentT>;
