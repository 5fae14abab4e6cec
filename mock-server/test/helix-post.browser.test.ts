/**
 * The playground's Send message and Terminate from a real page (Chromium): a JSON POST to the mock on another
 * port is a cross-origin request the browser asks about first (a preflight), and the mock says yes to a
 * loopback page; the answer is readable. A plain-text POST, the kind a page may send without asking, is refused.
 */
import { describe, expect, inject, it } from "vitest";

const base = `http://127.0.0.1:${inject("mockPort")}`;

describe("helix child actions from a loopback page", () => {
  it("a JSON POST passes the preflight and is answered", async () => {
    const res = await fetch(`${base}/helix/children/${encodeURIComponent("monitor 1")}/message`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message: "hello" }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, name: "monitor 1", action: "message" });
  });

  it("a plain-text POST is refused with 415", async () => {
    const res = await fetch(`${base}/helix/children/monitor-1/terminate`, { method: "POST", body: "{}" });
    expect(res.status).toBe(415);
  });
});
