export {};
//# sourceMappingURL=resume-machine.test.d.ts.map
