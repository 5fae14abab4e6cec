/**
 * `useAgent<AgentClass, State>`: the agent class types `call` and `stub` (method names, arguments, promised
 * results), `State` types `state` and `setState`; a component receives the connection typed with
 * `ReturnType<typeof useAgent<…>>`.
 */
import { useAgent } from "agents/react";
import { useState } from "react";
import type { CounterAgent, CounterState, TodoAgent, TodoState, ToolsAgent } from "./server";

type TodoConnection = ReturnType<typeof useAgent<TodoAgent, TodoState>>;

function TodoList({ agent }: { agent: TodoConnection }) {
  const todos = agent.state?.todos ?? [];
  return (
    <ul>
      {todos.map((t) => (
        <li key={t.id}>
          <button type="button" onClick={() => void agent.stub.remove(t.id)}>
            {t.done ? "✓" : "○"} {t.title}
          </button>
        </li>
      ))}
    </ul>
  );
}

export function Todos() {
  const [draft, setDraft] = useState("");
  const [last, setLast] = useState<string | null>(null);
  const agent = useAgent<TodoAgent, TodoState>({
    agent: "todo-agent",
    onStateUpdate: (state) => setLast(state.filter),
  });

  const add = async () => {
    const id: string = await agent.call("add", [draft]);
    const alsoId: string = await agent.stub.add(draft, true);
    const removed: boolean = await agent.call("remove", [id]);
    const total: number = await agent.call("count");
    await agent.call("exportAll", ["csv"], { stream: { onChunk: (c) => setLast(String(c)) } });
    setLast(`${alsoId} ${removed} ${total}`);
  };

  const filter = (f: TodoState["filter"]) => agent.setState({ todos: agent.state?.todos ?? [], filter: f });

  // @ts-expect-error a method the agent does not have
  void agent.call("rename", ["x"]);
  // @ts-expect-error the argument must be a string
  void agent.call("add", [42]);
  // @ts-expect-error `add` needs its arguments
  void agent.call("add");
  // @ts-expect-error the stub is typed too
  void agent.stub.add(1);
  // @ts-expect-error a method name only known at run time is not accepted by a typed agent
  const byName = (method: string, args: unknown[]) => agent.call(method, args);
  // @ts-expect-error the state is typed
  agent.setState({ todos: "none" });

  return (
    <div>
      <input value={draft} onChange={(e) => setDraft(e.target.value)} />
      <button type="button" onClick={() => void add()}>
        Add
      </button>
      <button type="button" onClick={() => filter("done")}>
        Done only
      </button>
      <button type="button" onClick={() => void byName("count", [])}>
        Count
      </button>
      <p>{last}</p>
      <TodoList agent={agent} />
    </div>
  );
}

export function TypedCounter() {
  const counter = useAgent<CounterAgent, CounterState>({ agent: "counter-agent", name: "main" });
  const bump = async () => {
    const next: number = await counter.stub.increment();
    const viaCall: number = await counter.call("increment", [next]);
    counter.setState({ count: viaCall });
  };
  return (
    <button type="button" onClick={() => void bump()}>
      {counter.state?.count}
    </button>
  );
}

export function ToolList() {
  // biome-ignore lint/complexity/noBannedTypes: the examples' own spelling of "no state"
  const agent = useAgent<ToolsAgent, {}>({ agent: "tools-agent" });
  const [tools, setTools] = useState<{ name: string }[]>([]);
  // An app that wants an untyped call casts, as the official examples do.
  const callAny = agent.call as (method: string, args?: unknown[]) => Promise<unknown>;
  return (
    <button
      type="button"
      onClick={async () => {
        setTools(await agent.call("listTools"));
        await callAny("listMethods", []);
      }}
    >
      {tools.length}
    </button>
  );
}

/** An agent typed by a plain interface instead of its class. */
export function HelperRuns() {
  const helper = useAgent<{ readonly state: unknown }, unknown>({ agent: "helper", name: "h-1" });
  return <p>{String(helper.state)}</p>;
}
