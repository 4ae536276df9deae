import type { PeerContext } from "../harness.js";
export async function recordGoldens(_ctx: PeerContext): Promise<void> {}
