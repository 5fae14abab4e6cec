/**
 * Setup for the jsdom project. Testing Library's waitFor/findBy give up after 1 s by default: on a busy machine
 * (CI shares its cores) a correct render after a socket frame can take longer, so a test would fail on speed,
 * not on what it asserts. Waits still end at once when their condition holds; the longer limit only bounds a
 * real hang.
 */
import { configure } from "@testing-library/react";

configure({ asyncUtilTimeout: 30_000 });
