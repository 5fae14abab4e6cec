export {};
//# sourceMappingURL=message-list.test.d.ts.map
