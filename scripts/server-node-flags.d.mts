/** Node's flags for the server process: see server-node-flags.mjs. */
export declare const SERVER_NODE_FLAGS: string[];
