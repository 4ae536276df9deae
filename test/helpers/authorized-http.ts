// The demo server over HTTP behind the OAuth resource server, with the test authorization server
// as its issuer: started before a test file's tests, closed after them.
import { after, before } from "node:test";
import { startAuthServer, type TestAuthServer } from "./auth-server.js";
import { serve, type Served } from "./http-peer.js";

export interface AuthorizedPeers {
  as: TestAuthServer;
  served: Served;
}

/** Registers the before and after hooks; the fields are set once `before` has run. */
export function withAuthorizedServer(scopes: string[]): AuthorizedPeers {
  const peers = {} as AuthorizedPeers;
  before(async () => {
    peers.as = await startAuthServer({ scopes });
    peers.served = await serve({ authorization: { issuer: peers.as.issuer, scopes } });
  });
  after(async () => {
    await peers.served.close();
    await peers.as.close();
  });
  return peers;
}
