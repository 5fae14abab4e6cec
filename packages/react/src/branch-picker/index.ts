/** `BranchPicker`: step between the answers a Think regeneration kept. */
export * from "./branch-picker.tsx";
