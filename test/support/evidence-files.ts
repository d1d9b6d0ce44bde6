import { deflateSync } from 'node:zlib';

/**
 * The files the evidence tests upload, built here byte by byte: a PNG's chunks (their CRCs left
 * zero: the service checks the structure, not the checksums), a JPEG's segments, a small PDF.
 */
export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function pngChunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  return out;
}

export const jpegSegment = (marker: number, data: Buffer): Buffer =>
  Buffer.concat([Buffer.from([0xff, marker, (data.length + 2) >> 8, (data.length + 2) & 0xff]), data]);

/** A one-pixel PNG, with an author in a text chunk unless `text` is false. */
export function onePixelPng(text = true): Buffer {
  const header = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]);
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', header),
    ...(text ? [pngChunk('tEXt', Buffer.from('Author\0Claire Mant'))] : []),
    pngChunk('IDAT', deflateSync(Buffer.from([0, 255, 0, 0]))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A JPEG's structure with an EXIF segment holding a GPS position and a camera serial number, and bytes after its end. */
export function jpegWithGps(): Buffer {
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    jpegSegment(0xe0, Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1')),
    jpegSegment(0xe1, Buffer.from('Exif\0\0GPSLatitude 51.5072N GPSLongitude 0.1276W BodySerialNumber 0042', 'latin1')),
    jpegSegment(0xdb, Buffer.alloc(65, 1)),
    jpegSegment(0xc0, Buffer.from([8, 0, 1, 0, 1, 1, 1, 0x11, 0])),
    jpegSegment(0xda, Buffer.from([1, 1, 0, 0, 0x3f, 0])),
    Buffer.from([0x12, 0xff, 0x00, 0x34]),
    Buffer.from([0xff, 0xd9]),
    Buffer.from('trailing bytes after the end'),
  ]);
}

/** A small PDF a doctor's note could be. */
export const DOCTOR_NOTE = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
