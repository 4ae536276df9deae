// The `format` keyword for the formats MCP tools use most: email, uri, date, date-time, time,
// uuid and ipv4 (JSON Schema 2020-12 validation §7.3, RFC 3339, RFC 3986, RFC 5321, RFC 4122).
// Checks are lenient where the RFCs are baroque (no comments or quoted pairs in emails) but never
// accept something malformed. Any other format name is only an annotation and always passes.
// Every regular expression here is linear: no two neighbouring repetitions can match the same text.

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:z|([+-])(\d{2}):(\d{2}))$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const URI = /^[a-z][a-z0-9+.-]*:(?:[a-z0-9\-._~!$&'()*+,;=:@/?#[\]]|%[0-9a-f]{2})*$/i;
const DOT_ATOM = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/i;
const QUOTED_LOCAL = /^"(?:[^"\\\r\n]|\\.)*"$/;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

const CHECKS: ReadonlyMap<string, (value: string) => boolean> = new Map([
  ["date", isDate],
  ["time", isTime],
  ["date-time", (value: string) => isDate(value.slice(0, 10)) && value.charAt(10).toLowerCase() === "t" && isTime(value.slice(11))],
  ["uuid", (value: string) => UUID.test(value)],
  ["uri", (value: string) => URI.test(value)],
  ["ipv4", isIpv4],
  ["email", isEmail],
]);

/** Whether `value` satisfies `format`; true for format names this module does not know. */
export function checkFormat(format: string, value: string): boolean {
  const check = CHECKS.get(format);
  return check === undefined || check(value);
}

function isDate(value: string): boolean {
  const parts = DATE.exec(value);
  if (parts === null) return false;
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const daysInMonth = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth[month - 1]!;
}

function isTime(value: string): boolean {
  const parts = TIME.exec(value);
  if (parts === null) return false;
  const [hour, minute, second] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const sign = parts[4] === "-" ? -1 : 1;
  const offsetHour = Number(parts[5] ?? 0);
  const offsetMinute = Number(parts[6] ?? 0);
  if (hour > 23 || minute > 59 || second > 60 || offsetHour > 23 || offsetMinute > 59) return false;
  if (second < 60) return true;
  // RFC 3339 §5.7: a leap second is only ever inserted at 23:59:60 UTC.
  const utcMinutes = (((hour * 60 + minute - sign * (offsetHour * 60 + offsetMinute)) % 1440) + 1440) % 1440;
  return utcMinutes === 23 * 60 + 59;
}

function isIpv4(value: string): boolean {
  const octets = value.split(".");
  // Leading zeros are refused: some parsers read "010" as octal 8.
  return octets.length === 4 && octets.every((octet) => /^(0|[1-9][0-9]{0,2})$/.test(octet) && Number(octet) <= 255);
}

function isHostname(value: string): boolean {
  return value.length <= 253 && value.split(".").every((label) => LABEL.test(label));
}

function isEmail(value: string): boolean {
  // RFC 5321 §4.5.3.1: a path is at most 256 octets; this also bounds the work on huge input.
  if (value.length > 320) return false;
  const at = value.lastIndexOf("@");
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (at < 1 || local.length > 64) return false;
  if (!DOT_ATOM.test(local) && !QUOTED_LOCAL.test(local)) return false;
  if (domain.startsWith("[") && domain.endsWith("]")) {
    const literal = domain.slice(1, -1);
    return isIpv4(literal) || /^ipv6:[0-9a-f:.]+$/i.test(literal);
  }
  return isHostname(domain);
}
