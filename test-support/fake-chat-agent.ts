/**
 * What `useAgent` returns, minus the network, for chat store tests: the test plays the server by dispatching
 * its frames, and reads what the chat sent.
 */
export class FakeChatAgent extends EventTarget {
  agent = "chat-agent";
  name = `t-${Math.random().toString(36).slice(2)}`;
  readyState = 1;
  /** The frames the chat sent, parsed. */
  readonly sent: Array<Record<string, unknown>> = [];
  send(data: string): void {
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }
  getHttpUrl(): string {
    return `http://localhost/agents/chat-agent/${this.name}`;
  }
  /** Dispatches one server frame. */
  frame(frame: unknown): void {
    this.dispatchEvent(new MessageEvent("message", { data: JSON.stringify(frame) }));
  }
  /**
   * One chunk of a chat stream (`null`: a frame without a body, e.g. the closing `done`). The stream is the
   * answer to the chat's last request, or `req1` when it sent none (another tab's turn).
   */
  chunk(body: unknown, done = false): void {
    const request = this.sent.filter((f) => f.type === "cf_agent_use_chat_request").at(-1);
    this.frame({
      type: "cf_agent_use_chat_response",
      id: request?.id ?? "req1",
      body: body ? JSON.stringify(body) : "",
      done,
    });
  }
}
