/**
 * The one URL parser the Live View rules share. The protocol package compiles without DOM or Node types, so
 * the WHATWG `URL` global (present in every runtime the kit supports) is declared here with only the fields
 * these rules read.
 */

/** The parts of a parsed URL the Live View rules read. */
export interface ParsedUrl {
  readonly href: string;
  readonly origin: string;
  readonly protocol: string;
  readonly username: string;
  readonly password: string;
  readonly host: string;
  readonly hostname: string;
}

declare const URL: new (input: string) => ParsedUrl;

/** `raw` as an absolute URL, or `undefined` when it does not parse. */
export function parseUrl(raw: string): ParsedUrl | undefined {
  try {
    return new URL(raw);
  } catch {
    return undefined;
  }
}
