// Wire frames the benchmarks feed, as the server sends them (all generated, deterministic).

/**
 * One assistant message of `deltas` text deltas as `cf_agent_use_chat_response` frames (JSON body), the text it
 * must end with, and the message's id.
 */
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
  return { frames, expected, messageId: "a1" };
}

/**
 * `runs` child runs of `perRun` chunks each as `agent-tool-event` frames, interleaved run by run the way
 * parallel runs arrive: `started` for all, chunk `seq` of every run, then `finished` for all. Chunk 1 is
 * `start`, 2 `text-start`, `perRun` `text-end`, the rest text deltas. Like the real server, every
 * `progressEvery` chunks a progress frame reuses the next stored chunk's sequence; every `milestoneEvery`
 * chunks (0: none) a milestone does too.
 */
export function agentToolStream({ runs = 20, perRun = 1_000, progressEvery = 100, milestoneEvery = 0 } = {}) {
  const frames = [];
  const ate = (r, sequence, event) =>
    JSON.stringify({ type: "agent-tool-event", parentToolCallId: `call_${r}`, sequence, event });
  const runId = (r) => `agent-tool:call_${r}`;
  const chunk = (r, seq, body) => ate(r, seq, { kind: "chunk", runId: runId(r), body: JSON.stringify(body) });
  for (let r = 0; r < runs; r++)
    frames.push(ate(r, 0, { kind: "started", runId: runId(r), agentType: "Researcher", order: r }));
  const bodyAt = (seq) => {
    if (seq === 1) return { type: "start", messageId: "m" };
    if (seq === 2) return { type: "text-start", id: "t" };
    if (seq === perRun) return { type: "text-end", id: "t" };
    return { type: "text-delta", id: "t", delta: `d${seq} ` };
  };
  let progressFrames = 0;
  let milestoneFrames = 0;
  for (let seq = 1; seq <= perRun; seq++) {
    for (let r = 0; r < runs; r++) {
      if (milestoneEvery && seq % milestoneEvery === 0) {
        milestoneFrames++;
        const n = seq / milestoneEvery;
        frames.push(
          chunk(r, seq, {
            type: "data-agent-milestone",
            id: `m${r}-${n}`,
            data: { name: `step-${n}`, sequence: n, at: 1_700_000_000_000 + seq, fraction: seq / perRun },
          }),
        );
      }
      if (progressEvery && seq % progressEvery === 0) {
        progressFrames++;
        frames.push(
          chunk(r, seq, {
            type: "data-agent-progress",
            id: `p${r}-${seq}`,
            transient: true,
            data: { fraction: seq / perRun },
          }),
        );
      }
      frames.push(chunk(r, seq, bodyAt(seq)));
    }
  }
  for (let r = 0; r < runs; r++)
    frames.push(ate(r, perRun + 1, { kind: "finished", runId: runId(r), summary: "" }));
  const expectedRunText = Array.from({ length: Math.max(0, perRun - 3) }, (_, i) => `d${i + 3} `).join("");
  return {
    frames,
    progressFrames,
    milestoneFrames,
    expectedRunText,
    runIds: Array.from({ length: runs }, (_, r) => runId(r)),
  };
}

/**
 * A transcript of `n` messages, alternating user / assistant; every fifth assistant message also called a tool
 * (a finished `tool-search` part). Deterministic text of typical lengths (user ~80, assistant ~400 chars).
 */
export function transcript(n = 2_000) {
  const words = (k, salt) => Array.from({ length: k }, (_, i) => `word${(i * 7 + salt) % 997}`).join(" ");
  return Array.from({ length: n }, (_, i) => {
    if (i % 2 === 0) return { id: `m${i}`, role: "user", parts: [{ type: "text", text: words(10, i) }] };
    const parts = [];
    if (i % 10 === 1)
      parts.push({
        type: "tool-search",
        toolCallId: `tc${i}`,
        state: "output-available",
        input: { query: words(4, i) },
        output: { hits: [words(8, i + 1), words(8, i + 2)] },
      });
    parts.push({ type: "text", text: words(50, i) });
    return { id: `m${i}`, role: "assistant", parts };
  });
}

/** The `cf_agent_chat_messages` frame the server sends on connect. */
export const messagesFrame = (messages) => JSON.stringify({ type: "cf_agent_chat_messages", messages });

/** The concatenated text parts of a message or run. */
export const textOf = (m) =>
  (m?.parts ?? [])
    .filter((p) => p.type === "text")
    .map((p) => p.text)
    .join("");
