// Connection tokens checked in the browser before anything is sent: a PASETO v4.public token
// (Ed25519, https://github.com/paseto-standard/paseto-spec) whose signature covers the
// implicit assertion `constellation:connect:v1`, verified with WebCrypto against the keys the
// server publishes at /v1/keys (kept for offline use). Printed badges carry a shorter form of
// their own, `b1.` (see BadgeTokens in the server and docs/tokens-and-keys.md), checked the same way.

const HEADER = 'v4.public.';
const ASSERTION = 'constellation:connect:v1';
const BADGE = 'b1.';
const BADGE_ASSERTION = 'constellation:badge:v1';
const KEYS = 'constellation.keys';
const encoder = new TextEncoder();

/** A token that cannot be accepted, with a code shared with the server's problems. */
export class TokenProblem extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

function base64url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new TokenProblem('malformed_token', 'not base64url');
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

function toBase64url(bytes) {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function le64(n) {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(n), true);
  return bytes;
}

/** PASETO's pre-authentication encoding of `pieces`. */
function pae(pieces) {
  const parts = [le64(pieces.length)];
  for (const piece of pieces) parts.push(le64(piece.length), piece);
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let offset = 0;
  for (const p of parts) { out.set(p, offset); offset += p.length; }
  return out;
}

/** The token inside what a camera read: the token itself, or a link with it in the fragment (`…/c#TOKEN`). */
export function tokenFrom(text) {
  const trimmed = (text || '').trim();
  const hash = trimmed.indexOf('#');
  const candidate = hash >= 0 ? trimmed.slice(hash + 1) : trimmed;
  try { return decodeURIComponent(candidate); } catch { return candidate; }
}

/** A v4.public token's signed message, its signature and its footer (empty if none), unverified. */
function split(token) {
  if (!token.startsWith(HEADER)) throw new TokenProblem('malformed_token', 'not a v4.public token');
  const pieces = token.slice(HEADER.length).split('.');
  if (pieces.length > 2) throw new TokenProblem('malformed_token', 'too many parts');
  const body = base64url(pieces[0]);
  if (body.length <= 64) throw new TokenProblem('malformed_token', 'too short');
  const footer = pieces.length === 2 ? base64url(pieces[1]) : new Uint8Array();
  return { message: body.slice(0, body.length - 64), signature: body.slice(body.length - 64), footer };
}

/** Checks that `publicKey` (32 raw bytes) made the Ed25519 `signature` of `signed`. */
async function checkSignature(signed, signature, publicKey) {
  const key = await crypto.subtle.importKey('raw', publicKey, { name: 'Ed25519' }, false, ['verify']);
  if (!(await crypto.subtle.verify({ name: 'Ed25519' }, key, signature, signed))) {
    throw new TokenProblem('invalid_signature', 'not genuine');
  }
}

/** What a v4.public token's signature covers: PAE(header, message, footer, implicit assertion). */
function signedBytes(parts, implicitAssertion) {
  return pae([encoder.encode(HEADER), parts.message, parts.footer, encoder.encode(implicitAssertion)]);
}

/**
 * PASETO v4.public verification alone, with no key id, claims or expiry (what the official PASETO
 * vectors check; the browser tests run them): the message and footer of `token` if `publicKey`
 * (32 raw bytes) signed it over `implicitAssertion` (a string); else throws a TokenProblem.
 */
export async function verifyPublic(token, publicKey, implicitAssertion = '') {
  const parts = split(token);
  await checkSignature(signedBytes(parts, implicitAssertion), parts.signature, publicKey);
  return { message: parts.message, footer: parts.footer };
}

/**
 * A badge code's key id, claims, signed bytes and signature, unverified: `b1.` and the base64url of
 * the key id (6 bytes), owner (16), event (16), issue and expiry (big-endian Unix seconds, 4 each),
 * then the Ed25519 signature (64) of PAE(`b1.`, those 46 bytes, `constellation:badge:v1`).
 */
function parseBadge(token) {
  const body = base64url(token.slice(BADGE.length));
  if (body.length !== 110) throw new TokenProblem('malformed_token', 'not a badge code');
  const fields = body.slice(0, 46);
  const times = new DataView(fields.buffer, fields.byteOffset + 38, 8);
  return {
    kid: toBase64url(fields.slice(0, 6)),
    signed: pae([encoder.encode(BADGE), fields, encoder.encode(BADGE_ASSERTION)]),
    signature: body.slice(46),
    claims: { subject: uuidOf(fields.slice(6, 22)), expiresAt: times.getUint32(4) * 1000, eventId: uuidOf(fields.slice(22, 38)), badge: true },
  };
}

/** The parts of a token (a shown code or a badge), its key id and claims, unverified. */
export function parse(token) {
  if (token.startsWith(BADGE)) return parseBadge(token);
  const parts = split(token);
  let kid;
  let payload;
  try {
    kid = JSON.parse(new TextDecoder().decode(parts.footer)).kid;
    payload = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(parts.message));
  } catch {
    throw new TokenProblem('malformed_token', 'unreadable');
  }
  if (typeof kid !== 'string' || !kid) throw new TokenProblem('malformed_token', 'no key id');
  return { kid, signed: signedBytes(parts, ASSERTION), signature: parts.signature, claims: claims(payload) };
}

/** A UUID's 16 bytes in its usual form. */
function uuidOf(bytes) {
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A UUID written as the unpadded base64url of its 16 bytes (22 characters), in its usual form. */
function uuid(compact) {
  const bytes = typeof compact === 'string' && compact.length === 22 ? base64url(compact) : null;
  if (!bytes || bytes.length !== 16) throw new TokenProblem('invalid_claims', 'not an id');
  return uuidOf(bytes);
}

/**
 * The claims a Constellation token carries, in one shape: subject, expiry (ms), event. Tokens carry
 * compact claims `{"s","i","x","j"[,"e"]}` (ids as 22-character base64url, times in Unix seconds);
 * older ones `{"sub","iat","exp","jti"[,"evt"]}` (UUID strings, RFC 3339 times). See the README.
 */
function claims(payload) {
  if ('s' in payload) {
    if (!Number.isInteger(payload.x)) throw new TokenProblem('invalid_claims', 'no expiry');
    return { subject: uuid(payload.s), expiresAt: payload.x * 1000, eventId: 'e' in payload ? uuid(payload.e) : null };
  }
  const expires = Date.parse(payload.exp);
  if (typeof payload.sub !== 'string' || Number.isNaN(expires)) throw new TokenProblem('invalid_claims', 'missing claims');
  return { subject: payload.sub.toLowerCase(), expiresAt: expires, eventId: payload.evt ? String(payload.evt).toLowerCase() : null };
}

/**
 * The server's published keys: fresh from /v1/keys when online (and kept), else the kept copy,
 * also when the server has not answered within 10 s (a signal that comes and goes).
 */
export async function publishedKeys() {
  try {
    const response = await fetch('/v1/keys', { cache: 'no-store', signal: AbortSignal.timeout(10000) });
    if (response.ok) {
      const set = await response.json();
      localStorage.setItem(KEYS, JSON.stringify(set));
      return { set, fresh: true };
    }
  } catch { /* offline: fall back to the kept copy */ }
  const kept = localStorage.getItem(KEYS);
  return { set: kept ? JSON.parse(kept) : null, fresh: false };
}

/**
 * Verifies `token` against the key set and returns its claims; throws a TokenProblem
 * (`unknown_key`, `invalid_signature`, `token_expired`, …). `at`: when it was scanned.
 */
export async function verify(token, keySet, at = Date.now()) {
  const parts = parse(token);
  const published = (keySet.keys || []).find((key) => key.kid === parts.kid);
  if (!published) throw new TokenProblem('unknown_key', 'another server\'s code');
  const raw = base64url(published.publicKey.replace(/^k4\.public\./, ''));
  await checkSignature(parts.signed, parts.signature, raw);
  if (published.notAfter && Date.now() > Date.parse(published.notAfter)) throw new TokenProblem('key_expired', 'retired key');
  // A badge lasts as long as its event, whose end its organizers may have moved since it was printed: the server says.
  if (!parts.claims.badge && parts.claims.expiresAt < at - 30_000) throw new TokenProblem('token_expired', 'expired');
  return parts.claims;
}
