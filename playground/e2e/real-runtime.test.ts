/**
 * The core walks (see `core-walks.ts`) against the real `agents` runtime: the `conformance/` Worker in workerd,
 * offline, with its scripted model, started here on a free loopback port. `RUNBOARD_SKIP_REAL_SERVER=1` skips
 * this file.
 */
import { afterAll, beforeAll, describe } from "vitest";
import { coreWalks } from "./core-walks.ts";
import { type Playground, SKIP_REAL, startPlayground } from "./harness.ts";

describe.skipIf(SKIP_REAL)("the playground on the real agents runtime (workerd)", () => {
  let pg: Playground;
  beforeAll(async () => {
    pg = await startPlayground("real");
  }, 180_000);
  afterAll(() => pg?.close());

  coreWalks(() => pg);
});
