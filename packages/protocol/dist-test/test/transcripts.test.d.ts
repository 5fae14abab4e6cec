export {};
//# sourceMappingURL=transcripts.test.d.ts.map
