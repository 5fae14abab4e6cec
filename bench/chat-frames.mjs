// The chat stream both chat benchmarks feed: one assistant message of `deltas` text deltas, as the server
// frames it (`cf_agent_use_chat_response` with a JSON body), and the text it must end with.
export function chatStream(deltas = 20_000, id = "req1") {
  const frame = (body, done = false) =>
    JSON.stringify({ type: "cf_agent_use_chat_response", id, body: body ? JSON.stringify(body) : "", done });
  const frames = [
    frame({ type: "start", messageId: "a1" }),
    frame({ type: "start-step" }),
    frame({ type: "text-start", id: "t" }),
  ];
  let expected = "";
  for (let i = 0; i < deltas; i++) {
    const delta = `w${i} `;
    expected += delta;
    frames.push(frame({ type: "text-delta", id: "t", delta }));
  }
  frames.push(frame({ type: "text-end", id: "t" }), frame({ type: "finish" }), frame(null, true));
  return { frames, expected };
}
