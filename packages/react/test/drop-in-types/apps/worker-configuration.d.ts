// What `wrangler types` generates for an app (its Env and the Workers runtime), reduced to the names the agent
// classes here and the `agents` declarations they extend need. The runtime's own types are not installed in
// this repository, and without a base class `agents`' typed RPC falls back to `any`.
declare namespace Cloudflare {
  interface Env {
    AI_GATEWAY_TOKEN?: string;
  }
}

interface DurableObjectState {
  readonly id: { toString(): string; readonly name?: string };
  readonly storage: DurableObjectStorage;
}
interface DurableObjectStorage {
  get<T = unknown>(key: string): Promise<T | undefined>;
  put<T>(key: string, value: T): Promise<void>;
  delete(key: string): Promise<boolean>;
  list<T = unknown>(options?: { prefix?: string }): Promise<Map<string, T>>;
}
interface DurableObjectStub<_T = undefined> {
  fetch(request: Request): Promise<Response>;
}
interface DurableObjectNamespace<_T = undefined> {
  idFromName(name: string): { toString(): string };
  get(id: { toString(): string }): DurableObjectStub;
}
type DurableObjectJurisdiction = "eu" | "fedramp";
type DurableObjectLocationHint = "wnam" | "enam" | "weur" | "eeur" | "apac" | "oc" | "afr" | "me";
interface Fetcher {
  fetch(request: Request): Promise<Response>;
}
interface ForwardableEmailMessage {
  readonly from: string;
  readonly to: string;
}
interface SendEmail {
  send(message: unknown): Promise<EmailSendResult>;
}
interface EmailSendResult {
  messageId: string;
}
interface InstanceStatus {
  status: "queued" | "running" | "paused" | "errored" | "terminated" | "complete" | "waiting" | "unknown";
  error?: { name: string; message: string };
  output?: unknown;
}
interface WorkflowInstanceCreateOptions<Params = unknown> {
  id?: string;
  params?: Params;
  retention?: { successRetention?: string; errorRetention?: string };
}
interface Workflow<_Params = unknown> {
  create(options?: WorkflowInstanceCreateOptions<_Params>): Promise<{ id: string }>;
}

declare module "cloudflare:workers" {
  export abstract class DurableObject<Env = unknown> {
    protected ctx: DurableObjectState;
    protected env: Env;
    constructor(ctx: DurableObjectState, env: Env);
  }
  export abstract class WorkerEntrypoint<Env = unknown, Props = unknown> {
    protected env: Env;
    protected props?: Props;
  }
  export abstract class WorkflowEntrypoint<Env = unknown, Params = unknown> {
    protected env: Env;
    protected params?: Params;
  }
  export class RpcTarget {}
  export type WorkflowSleepDuration = string | number;
  export interface WorkflowEvent<Params> {
    payload: Readonly<Params>;
    timestamp: Date;
    instanceId: string;
  }
  export interface WorkflowStep {
    sleep(name: string, duration: WorkflowSleepDuration): Promise<void>;
  }
  export const env: Cloudflare.Env;
}
