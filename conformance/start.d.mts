/** Types of `start.mjs` for TypeScript callers (the tests). */
export interface RealServer {
  url: string;
  port: number;
  startupMs: number;
  output: string[];
  stop(): Promise<void>;
}
export declare const OFFLINE_ENV: Record<string, string>;
export declare function freePort(): Promise<number>;
export declare function startRealServer(options?: {
  port?: number;
  timeoutMs?: number;
  persistTo?: string;
  log?: (line: string) => void;
}): Promise<RealServer>;
