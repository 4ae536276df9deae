import type { PeerContext } from "../harness.js";
export async function runTheirServer(_ctx: PeerContext): Promise<void> {}
