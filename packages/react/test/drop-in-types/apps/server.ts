/**
 * The server side of the drop-in apps: agent classes as an app defines them, imported by the client files as
 * types only (`useAgent<TodoAgent, TodoState>`), the way Cloudflare's examples share them.
 */
import type { StreamingResponse } from "agents";
import { Agent, callable } from "agents";

/** A todo list's state. */
export interface TodoState {
  todos: { id: string; title: string; done: boolean }[];
  filter: "all" | "open" | "done";
}

/** An agent with typed callables: what `call` and `stub` are typed from. */
export class TodoAgent extends Agent<Cloudflare.Env, TodoState> {
  override initialState: TodoState = { todos: [], filter: "all" };

  @callable()
  add(title: string, done?: boolean): string {
    const id = crypto.randomUUID();
    this.setState({ ...this.state, todos: [...this.state.todos, { id, title, done: done ?? false }] });
    return id;
  }

  @callable()
  async remove(id: string): Promise<boolean> {
    this.setState({ ...this.state, todos: this.state.todos.filter((t) => t.id !== id) });
    return true;
  }

  @callable()
  count(): number {
    return this.state.todos.length;
  }

  @callable({ streaming: true })
  exportAll(stream: StreamingResponse, format: "json" | "csv"): void {
    stream.end(format === "json" ? JSON.stringify(this.state.todos) : "");
  }

  /** Not serializable: the typed client leaves it out. */
  when(): Date {
    return new Date();
  }
}

/** A counter's state. */
export type CounterState = { count: number; updatedBy?: string };

/** An agent whose state is the only thing the client types. */
export class CounterAgent extends Agent<Cloudflare.Env, CounterState> {
  @callable()
  increment(by = 1): number {
    this.setState({ count: this.state.count + by });
    return this.state.count;
  }
}

/** An agent without state, as several examples declare (`useAgent<ToolsAgent, {}>`). */
// biome-ignore lint/complexity/noBannedTypes: the examples' own spelling of "no state"
export class ToolsAgent extends Agent<Cloudflare.Env, {}> {
  @callable()
  listTools(): { name: string; description?: string }[] {
    return [];
  }
}
