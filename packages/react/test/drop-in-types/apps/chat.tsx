/**
 * `useAgentChat` from `@cloudflare/ai-chat/react` with every option the docs and examples use, and every field
 * of its result handed on the way apps do (messages to components typed `UIMessage[]`, sends with and without
 * ids, files, edits, regenerate of one answer, tool outputs and approvals).
 */
import {
  type AITool,
  type ChatTurnEndEvent,
  type ClientToolSchema,
  detectToolsRequiringConfirmation,
  extractClientToolSchemas,
  getAgentMessages,
  getToolApproval,
  getToolCallId,
  getToolInput,
  getToolOutput,
  getToolPartState,
  type JSONSchemaType,
  type OnToolCallCallback,
  type PrepareSendMessagesRequestOptions,
  type PrepareSendMessagesRequestResult,
  type UseAgentChatOptions,
  useAgentChat,
} from "@cloudflare/ai-chat/react";
import { useAgent } from "agents/react";
import { type FileUIPart, isToolUIPart, type UIMessage } from "ai";
import { Suspense, useState } from "react";

const locationSchema: JSONSchemaType = { type: "object", properties: {} };

const tools: Record<string, AITool> = {
  getLocalTime: {
    description: "The user's local time",
    parameters: { type: "object", properties: { zone: { type: "string" } } },
    execute: async () => new Date().toLocaleTimeString(),
  },
  getLocation: { description: "Where the user is", parameters: locationSchema },
};
const schemas: ClientToolSchema[] | undefined = extractClientToolSchemas(tools);
const confirm: string[] = detectToolsRequiringConfirmation(tools);

const onToolCall: OnToolCallCallback = async ({ toolCall, addToolOutput }) => {
  if (toolCall.toolName === "getLocation") {
    addToolOutput({ toolCallId: toolCall.toolCallId, output: { lat: 0, lng: 0 } });
  } else {
    addToolOutput({ toolCallId: toolCall.toolCallId, state: "output-error", errorText: "unsupported" });
  }
};

function prepare(options: PrepareSendMessagesRequestOptions): PrepareSendMessagesRequestResult {
  return { body: { ...options.body, count: options.messages.length, trigger: options.trigger } };
}

function MessageList({ messages, onRetry }: { messages: UIMessage[]; onRetry: (id: string) => void }) {
  return (
    <ol>
      {messages.map((m) => (
        <li key={m.id}>
          {m.parts.map((part, i) => {
            if (part.type === "text") return <p key={`${m.id}-${i}`}>{part.text}</p>;
            if (isToolUIPart(part)) {
              const approval = getToolApproval(part);
              return (
                <pre key={getToolCallId(part)}>
                  {getToolPartState(part)} {JSON.stringify(getToolInput(part))}{" "}
                  {JSON.stringify(getToolOutput(part))} {approval?.id}
                </pre>
              );
            }
            return null;
          })}
          {m.role === "assistant" ? (
            <button type="button" onClick={() => onRetry(m.id)}>
              Retry
            </button>
          ) : null}
        </li>
      ))}
    </ol>
  );
}

function Chat({ room }: { room: string }) {
  const [ends, setEnds] = useState<ChatTurnEndEvent[]>([]);
  const [input, setInput] = useState("");
  const [files, setFiles] = useState<FileList | undefined>(undefined);
  const agent = useAgent({ agent: "chat-agent", name: room });

  const options: UseAgentChatOptions = {
    agent,
    tools,
    onToolCall,
    toolsRequiringConfirmation: confirm,
    autoContinueAfterToolResult: true,
    autoSendAfterAllConfirmationsResolved: true,
    experimental_automaticToolResolution: false,
    resume: true,
    cancelOnClientAbort: false,
    syncMessagesToServer: true,
    credentials: "include",
    headers: { authorization: "Bearer x" },
    throttle: 50,
    body: () => ({ timezone: Intl.DateTimeFormat().resolvedOptions().timeZone, tools: schemas }),
    prepareSendMessagesRequest: prepare,
    getInitialMessages: async ({ agent: agentClass, name, url }) =>
      getAgentMessages({ url: url ?? `/agents/${agentClass}/${name}/get-messages`, credentials: "include" }),
    onTurnEnd: (event) => setEnds((e) => [...e, event]),
    onError: (error) => console.warn(error.message),
    onFinish: ({ message, messages, isAbort, isDisconnect, isError, finishReason }) =>
      console.info(message.id, messages.length, isAbort, isDisconnect, isError, finishReason),
    onData: (part) => console.info(part.type, part.data),
    sendAutomaticallyWhen: ({ messages }) => messages.length > 100,
    experimental_queue: true,
    generateId: () => crypto.randomUUID(),
    id: `chat-${room}`,
    messages: [],
  };
  const {
    id,
    messages,
    sendMessage,
    regenerate,
    stop,
    status,
    error,
    clearError,
    setMessages,
    clearHistory,
    addToolOutput,
    addToolResult,
    addToolApprovalResponse,
    resumeStream,
    isStreaming,
    isServerStreaming,
    isRecovering,
    isToolContinuation,
    connectionError,
    experimental_queuedMessages,
    experimental_removeQueuedMessage,
    experimental_sendQueuedMessageNow,
  } = useAgentChat(options);

  const send = async () => {
    if (files) await sendMessage({ text: input, files });
    else await sendMessage({ text: input }, { body: { mode: "fast" }, headers: { "x-mode": "fast" } });
    setInput("");
  };
  const sendParts = () =>
    sendMessage({ role: "user", parts: [{ type: "text", text: input }], metadata: { draft: false } });
  const sendFile = (file: FileUIPart) => sendMessage({ files: [file] });
  const edit = (messageId: string, text: string) => sendMessage({ text, messageId });
  const last: UIMessage | undefined = messages[messages.length - 1];
  const keepFirst = () => setMessages((prev) => prev.slice(0, 1));
  const replace = (next: UIMessage[]) => setMessages(next);

  return (
    <div data-chat={id}>
      <MessageList messages={messages} onRetry={(messageId) => void regenerate({ messageId })} />
      <p>
        {status === "streaming" || isStreaming ? "…" : null} {isServerStreaming && "elsewhere"}{" "}
        {isRecovering && "recovering"} {status === "submitted" && !isToolContinuation && "typing"}
        {error?.message} {connectionError?.code} {ends.length} {last?.id}
        {experimental_queuedMessages.length}
      </p>
      <input value={input} onChange={(e) => setInput(e.target.value)} />
      <input type="file" multiple onChange={(e) => setFiles(e.target.files ?? undefined)} />
      <button type="button" onClick={() => void send()}>
        Send
      </button>
      <button type="button" onClick={() => void sendParts()}>
        Send parts
      </button>
      <button
        type="button"
        onClick={() => void sendFile({ type: "file", mediaType: "text/plain", url: "data:," })}
      >
        Send a file
      </button>
      <button type="button" onClick={() => void edit("m-1", "edited")}>
        Edit
      </button>
      <button type="button" onClick={() => void regenerate()}>
        Regenerate
      </button>
      <button type="button" onClick={() => void stop()}>
        Stop
      </button>
      <button type="button" onClick={() => clearError()}>
        Dismiss
      </button>
      <button type="button" onClick={() => clearHistory()}>
        Clear
      </button>
      <button type="button" onClick={keepFirst}>
        Keep first
      </button>
      <button type="button" onClick={() => replace([])}>
        Empty
      </button>
      <button type="button" onClick={() => addToolOutput({ toolCallId: "t-1", output: { ok: true } })}>
        Answer
      </button>
      <button
        type="button"
        onClick={() => addToolOutput({ toolCallId: "t-1", toolName: "getLocation", output: 1 })}
      >
        Answer with its name
      </button>
      <button
        type="button"
        onClick={() => void addToolResult({ tool: "getLocation", toolCallId: "t-2", output: 2 })}
      >
        Old name
      </button>
      <button type="button" onClick={() => void addToolApprovalResponse({ id: "a-1", approved: true })}>
        Approve
      </button>
      <button
        type="button"
        onClick={() => void addToolApprovalResponse({ id: "a-1", approved: false, reason: "not now" })}
      >
        Deny
      </button>
      <button type="button" onClick={() => void resumeStream()}>
        Resume
      </button>
      <button type="button" onClick={() => experimental_removeQueuedMessage("q-1")}>
        Unqueue
      </button>
      <button type="button" onClick={() => void experimental_sendQueuedMessageNow("q-1")}>
        Send now
      </button>
    </div>
  );
}

export function ChatPage() {
  return (
    <Suspense fallback="Loading…">
      <Chat room="room-1" />
    </Suspense>
  );
}

/** Inline options, and the hook's result handed on whole. */
export function InlineChat() {
  const agent = useAgent({ agent: "chat-agent" });
  const chat = useAgentChat({ agent, getInitialMessages: null, throttle: false, experimental_throttle: 0 });
  return (
    <MessageList messages={chat.messages} onRetry={(messageId) => void chat.regenerate({ messageId })} />
  );
}
