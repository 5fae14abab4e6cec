// Filled by issue #5; the component's parts are exported from here.
export {};
