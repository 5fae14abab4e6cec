import { ChatMessagesProvider, MessageParts, useChatMessage, useChatMessageIds } from "@runboard/react";
import { memo, type ReactNode } from "react";

/** One row per message: it re-renders only when its own message changes. */
const Row = memo(function Row({ id }: { id: string }) {
  const message = useChatMessage(id);
  return message ? (
    <article data-role={message.role}>
      <MessageParts message={message} />
    </article>
  ) : null;
});

function Rows() {
  return useChatMessageIds().map((id) => <Row key={id} id={id} />);
}

/** The transcript of `chat` (what `useAgentChat` returned). */
export function Transcript({
  chat,
}: {
  chat: Parameters<typeof ChatMessagesProvider>[0]["chat"];
}): ReactNode {
  return (
    <ChatMessagesProvider chat={chat}>
      <Rows />
    </ChatMessagesProvider>
  );
}
