export {};
//# sourceMappingURL=agent-tool-runs.test.d.ts.map
