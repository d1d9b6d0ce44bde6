import type { AcceptedType } from './evidence.js';

/**
 * What a landed file's bytes are, and an image without its metadata. Pure, bounded by the bytes'
 * length, no native library (the Lambda bundle stays small and arm64-clean).
 *
 * The type comes from the magic numbers alone (a PDF's `%PDF-`, a JPEG's SOI, a PNG's signature),
 * never from the name or the declared type. Metadata is removed by rewriting the image's container
 * without it, not by decoding the pixels: a JPEG keeps its frame, tables and scans and loses every
 * APPn segment but JFIF's (APP0) and Adobe's (APP14, which says how to read the colours), each
 * kept only when its data is what its marker says, its comments and anything after its end; a PNG keeps its critical chunks and those that say how to
 * draw them and loses its text, EXIF and time chunks and anything after IEND. EXIF (APP1: the GPS
 * position, the camera's serial number), XMP and IPTC are all among what goes.
 */
export function sniff(bytes: Uint8Array): AcceptedType | undefined {
  if (startsWith(bytes, PDF)) return 'application/pdf';
  if (startsWith(bytes, JPEG)) return 'image/jpeg';
  if (startsWith(bytes, PNG)) return 'image/png';
  return undefined;
}

const PDF = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-
const JPEG = [0xff, 0xd8, 0xff];
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const startsWith = (bytes: Uint8Array, prefix: readonly number[]): boolean => prefix.every((byte, index) => bytes[index] === byte);

/** The image without its metadata; undefined when its structure cannot be read (the file is refused). */
export function withoutMetadata(type: AcceptedType, bytes: Uint8Array): Uint8Array | undefined {
  if (type === 'image/jpeg') return jpegWithoutMetadata(bytes);
  if (type === 'image/png') return pngWithoutMetadata(bytes);
  return bytes;
}

// JPEG markers: SOI, EOI, SOS, the standalone RSTn and TEM, and the segments kept.
const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const APP14 = 0xee;
const isStandalone = (marker: number): boolean => (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01;
const APP0 = 0xe0;
/** A segment kept only if it is what its marker says: JFIF's APP0 and Adobe's APP14 (anything else in them goes). */
const KEPT_APP: ReadonlyMap<number, readonly number[]> = new Map([
  [APP0, [0x4a, 0x46, 0x49, 0x46, 0x00]], // "JFIF\0"
  [APP14, [0x41, 0x64, 0x6f, 0x62, 0x65]], // "Adobe"
]);
const isDropped = (marker: number, data: Uint8Array): boolean => {
  if (marker === 0xfe || (marker >= 0xe1 && marker <= 0xef && marker !== APP14)) return true;
  const signature = KEPT_APP.get(marker);
  return signature !== undefined && !signature.every((byte, index) => data[index] === byte);
};

function jpegWithoutMetadata(bytes: Uint8Array): Uint8Array | undefined {
  const out: Uint8Array[] = [bytes.subarray(0, 2)];
  let at = 2;
  // Each turn moves `at` forward by at least one byte: the loop ends within bytes.length turns.
  while (at < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    let markerAt = at + 1;
    while (bytes[markerAt] === 0xff) markerAt++; // fill bytes
    const marker = bytes[markerAt];
    if (marker === undefined || marker === 0x00 || marker === SOI) return undefined;
    if (marker === EOI) {
      out.push(Uint8Array.of(0xff, EOI));
      return concat(out); // anything after the end goes
    }
    if (isStandalone(marker)) {
      out.push(Uint8Array.of(0xff, marker));
      at = markerAt + 1;
      continue;
    }
    const length = ((bytes[markerAt + 1] ?? 0) << 8) | (bytes[markerAt + 2] ?? 0);
    const end = markerAt + 1 + length;
    if (length < 2 || end > bytes.length) return undefined;
    if (!isDropped(marker, bytes.subarray(markerAt + 3, end))) out.push(Uint8Array.of(0xff, marker), bytes.subarray(markerAt + 1, end));
    at = end;
    if (marker !== SOS) continue;
    // The scan's entropy-coded data runs to the next marker that is not a stuffed 0xFF00 or an RSTn.
    let scan = at;
    while (scan < bytes.length - 1 && !(bytes[scan] === 0xff && bytes[scan + 1] !== 0x00 && !(bytes[scan + 1]! >= 0xd0 && bytes[scan + 1]! <= 0xd7))) scan++;
    if (scan >= bytes.length - 1) return undefined;
    out.push(bytes.subarray(at, scan));
    at = scan;
  }
  return undefined; // no end marker
}

/** The chunks a PNG keeps: the critical ones and those that say how to draw them. */
const PNG_KEPT = new Set(['IHDR', 'PLTE', 'IDAT', 'IEND', 'tRNS', 'gAMA', 'cHRM', 'sRGB', 'iCCP', 'sBIT', 'pHYs', 'bKGD']);

function pngWithoutMetadata(bytes: Uint8Array): Uint8Array | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: Uint8Array[] = [bytes.subarray(0, PNG.length)];
  let at = PNG.length;
  // Each turn moves `at` forward by at least 12 bytes.
  while (at + 12 <= bytes.length) {
    const length = view.getUint32(at);
    const end = at + 12 + length;
    if (end > bytes.length) return undefined;
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    if (!/^[A-Za-z]{4}$/.test(type)) return undefined;
    if (PNG_KEPT.has(type)) out.push(bytes.subarray(at, end));
    at = end;
    if (type === 'IEND') return concat(out);
  }
  return undefined;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
