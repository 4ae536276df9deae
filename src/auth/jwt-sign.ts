// Signing a JWT as a compact JWS (header.payload.signature, each part base64url), for the
// assertions a client makes about itself: RFC 7523 client authentication (private_key_jwt).
// Spec: RFC 7515 section 7.1 (compact serialization), RFC 7518 section 3 (RS256, ES256),
// RFC 8037 section 3.1 (EdDSA), RFC 7519 (JWT claims).
// Left out on purpose: HMAC algorithms (a shared secret is client_secret_basic's job), RSA-PSS,
// ES384/ES512 and encryption (JWE); nothing in MCP's extensions asks for them.

import { createPrivateKey, KeyObject, sign, type JsonWebKey } from "node:crypto";

/** The algorithms we sign with, by their JWS `alg` names. */
export type SigningAlgorithm = "RS256" | "ES256" | "EdDSA";

/** A private key, checked once, with the algorithm it signs with and the `kid` that names it. */
export interface SigningKey {
  key: KeyObject;
  alg: SigningAlgorithm;
  /** Put in the header so the verifier can pick the public key from a JWK Set. */
  kid?: string;
}

/** A key that cannot be read, or that does not fit the algorithm asked for. */
export class JwtSignError extends Error {
  constructor(problem: string, options?: { cause?: unknown }) {
    super(`jwt signing key: ${problem}`, options);
    this.name = "JwtSignError";
  }
}

/**
 * Reads a private key given as PEM (PKCS#8, or PKCS#1/SEC1), as a JWK (with its private part),
 * or as a KeyObject. `alg` defaults to the one the key's type implies (RSA: RS256, P-256: ES256,
 * Ed25519/Ed448: EdDSA); a JWK's own `kid` and `alg` are used when the options name none.
 * The error never contains the key.
 */
export function signingKey(source: string | JsonWebKey | KeyObject, options: { alg?: string; kid?: string } = {}): SigningKey {
  let key: KeyObject;
  try {
    if (typeof source === "string") key = createPrivateKey(source);
    else if (source instanceof KeyObject) key = source;
    else key = createPrivateKey({ key: source, format: "jwk" });
  } catch (error) {
    // Only node's error code: its message may quote what it was given, which is a secret here.
    const code = error instanceof Error && "code" in error ? ` (${String(error.code)})` : "";
    throw new JwtSignError(`not a private key in PEM or JWK form${code}`, { cause: error });
  }
  if (key.type !== "private") throw new JwtSignError(`a ${key.type} key cannot sign; a private key is needed`);
  const jwk: JsonWebKey = typeof source === "string" || source instanceof KeyObject ? {} : source;
  const implied = impliedAlgorithm(key);
  const alg = options.alg ?? (typeof jwk.alg === "string" ? jwk.alg : implied);
  // Spec (RFC 8725 section 3.1): the algorithm is fixed by the key; an RSA key never signs as ES256.
  if (alg !== implied) throw new JwtSignError(`a key of type ${describe(key)} signs ${implied}, not ${JSON.stringify(alg)}`);
  const kid = options.kid ?? (typeof jwk.kid === "string" ? jwk.kid : undefined);
  return kid === undefined ? { key, alg: implied } : { key, alg: implied, kid };
}

/** Signs `claims` as a compact JWS. `typ` goes in the header when given (e.g. "JWT"). */
export function signJwt(claims: Record<string, unknown>, signer: SigningKey, header: { typ?: string } = {}): string {
  const protectedHeader: Record<string, string> = { alg: signer.alg };
  if (header.typ !== undefined) protectedHeader.typ = header.typ;
  if (signer.kid !== undefined) protectedHeader.kid = signer.kid;
  const input = `${base64url(JSON.stringify(protectedHeader))}.${base64url(JSON.stringify(claims))}`;
  const signature = signer.alg === "EdDSA"
    // EdDSA hashes internally, so node:crypto takes no digest for it.
    ? sign(null, Buffer.from(input), signer.key)
    // Spec (RFC 7518 section 3.4): an ES256 signature is r || s, 32 bytes each, not the DER that OpenSSL makes by default.
    : sign("sha256", Buffer.from(input), signer.alg === "ES256" ? { key: signer.key, dsaEncoding: "ieee-p1363" } : signer.key);
  return `${input}.${base64url(signature)}`;
}

/** RFC 7515 section 2: base64url without padding. */
export function base64url(data: string | Uint8Array): string {
  return Buffer.from(data).toString("base64url");
}

function impliedAlgorithm(key: KeyObject): SigningAlgorithm {
  switch (key.asymmetricKeyType) {
    case "rsa":
      // Spec (RFC 7518 section 3.3): RS256 keys are 2048 bits or larger.
      if ((key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) throw new JwtSignError(`an RSA key of ${key.asymmetricKeyDetails?.modulusLength} bits is too short for RS256 (2048 at least)`);
      return "RS256";
    case "ec":
      if (key.asymmetricKeyDetails?.namedCurve !== "prime256v1") throw new JwtSignError(`an EC key on ${key.asymmetricKeyDetails?.namedCurve} is not supported (ES256 needs P-256)`);
      return "ES256";
    case "ed25519":
    case "ed448":
      return "EdDSA";
    default:
      throw new JwtSignError(`keys of type ${describe(key)} are not supported (RSA, EC P-256, Ed25519 or Ed448)`);
  }
}

function describe(key: KeyObject): string {
  const curve = key.asymmetricKeyDetails?.namedCurve;
  return `${key.asymmetricKeyType ?? "symmetric"}${curve === undefined ? "" : ` ${curve}`}`;
}
