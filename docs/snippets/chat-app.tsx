import { Suspense } from "react";
import { Chat } from "./first-chat.tsx";

/** The chat inside the Suspense boundary `useAgentChat` needs while the first transcript loads. */
export function App({ host }: { host: string }) {
  return (
    <Suspense fallback={<p>Loading the conversation…</p>}>
      <Chat host={host} />
    </Suspense>
  );
}
