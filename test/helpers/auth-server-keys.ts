// The signing side of the test authorization server (auth-server.ts): key pairs for RS256, ES256
// and EdDSA with their public JWKs, and compact JWS signing with node:crypto (ES256 as r || s).
import { generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";

export type SigningAlgorithm = "RS256" | "ES256" | "EdDSA";

export interface SigningKey {
  kid: string;
  alg: SigningAlgorithm;
  privateKey: KeyObject;
  jwk: Record<string, unknown>;
}

const GENERATE: Record<SigningAlgorithm, () => { privateKey: KeyObject; publicKey: KeyObject }> = {
  RS256: () => generateKeyPairSync("rsa", { modulusLength: 2048 }),
  ES256: () => generateKeyPairSync("ec", { namedCurve: "P-256" }),
  EdDSA: () => generateKeyPairSync("ed25519"),
};

export function newKey(alg: SigningAlgorithm, kid = `${alg.toLowerCase()}-${randomBytes(4).toString("hex")}`): SigningKey {
  const { privateKey, publicKey } = GENERATE[alg]();
  return { kid, alg, privateKey, jwk: { ...publicKey.export({ format: "jwk" }), kid, alg, use: "sig" } };
}

export function signJws(header: Record<string, unknown>, payload: Record<string, unknown>, key: SigningKey): string {
  const input = `${b64(header)}.${b64(payload)}`;
  const data = Buffer.from(input);
  const signature = key.alg === "EdDSA" ? sign(null, data, key.privateKey)
    : key.alg === "ES256" ? sign("sha256", data, { key: key.privateKey, dsaEncoding: "ieee-p1363" })
    : sign("sha256", data, key.privateKey);
  return `${input}.${signature.toString("base64url")}`;
}

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
