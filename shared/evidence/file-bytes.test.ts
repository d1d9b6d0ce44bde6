import { describe, expect, it } from 'vitest';
import { sniff, withoutMetadata } from './file-bytes.js';
import { objectOf, storedKey, uploadKey } from './evidence.js';
import { jpegSegment, PNG_SIGNATURE, pngChunk } from '../../test/support/evidence-files.js';

const segment = jpegSegment;
const chunk = pngChunk;

describe('what a file is', () => {
  it('comes from its magic numbers alone', () => {
    expect(sniff(Buffer.from('%PDF-1.7\n'))).toBe('application/pdf');
    expect(sniff(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniff(PNG_SIGNATURE)).toBe('image/png');
    for (const other of [Buffer.from('GIF89a'), Buffer.from(' %PDF-1.7'), Buffer.from([0xff, 0xd8]), Buffer.alloc(0), Buffer.from('PK\x03\x04')])
      expect(sniff(other)).toBeUndefined();
  });
});

describe('an image without its metadata', () => {
  const scan = Buffer.from([0x12, 0xff, 0x00, 0x34, 0xff, 0xd0, 0x56]); // entropy data with a stuffed 0xFF and a restart marker
  const jpeg = (...middle: Buffer[]) =>
    Buffer.concat([Buffer.from([0xff, 0xd8]), ...middle, segment(0xda, Buffer.from([1, 1, 0, 0, 0x3f, 0])), scan, Buffer.from([0xff, 0xd9])]);
  const jfif = segment(0xe0, Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1'));
  const adobe = segment(0xee, Buffer.from('Adobe\0\x64\0\0\0\0\x01', 'latin1'));
  const tables = segment(0xdb, Buffer.alloc(65, 1));

  it('a JPEG keeps JFIF, Adobe, its tables and scans; loses EXIF (GPS, serial), XMP, IPTC, comments and what follows its end', () => {
    const exif = segment(0xe1, Buffer.from('Exif\0\0GPSLatitude 51.5N BodySerialNumber 42', 'latin1'));
    const xmp = segment(0xe1, Buffer.from('http://ns.adobe.com/xap/1.0/\0<x:xmpmeta/>', 'latin1'));
    const iptc = segment(0xed, Buffer.from('Photoshop 3.0\0 city', 'latin1'));
    const comment = segment(0xfe, Buffer.from('taken at home', 'latin1'));
    const original = Buffer.concat([jpeg(jfif, exif, xmp, iptc, comment, adobe, tables), Buffer.from('appended payload')]);
    expect(Buffer.from(withoutMetadata('image/jpeg', original)!)).toEqual(jpeg(jfif, adobe, tables));
  });

  it('a JPEG keeps an APP0 or APP14 only when it is JFIF’s or Adobe’s', () => {
    const fakeApp0 = segment(0xe0, Buffer.from('HIDDEN-GPS 51.5N', 'latin1'));
    const fakeApp14 = segment(0xee, Buffer.from('NOTADOBE-GPS', 'latin1'));
    expect(Buffer.from(withoutMetadata('image/jpeg', jpeg(jfif, fakeApp0, fakeApp14, adobe, tables))!)).toEqual(jpeg(jfif, adobe, tables));
  });

  it('a JPEG whose structure cannot be read is refused', () => {
    const whole = jpeg(jfif, tables);
    expect(withoutMetadata('image/jpeg', whole.subarray(0, whole.length - 2))).toBeUndefined(); // no end
    expect(withoutMetadata('image/jpeg', Buffer.concat([Buffer.from([0xff, 0xd8]), Buffer.from([0xff, 0xe1, 0xff, 0xff])]))).toBeUndefined(); // a length past the end
    expect(withoutMetadata('image/jpeg', Buffer.concat([Buffer.from([0xff, 0xd8, 0x00, 0x00])]))).toBeUndefined(); // no marker
  });

  it('a PNG keeps its critical chunks and those that say how to draw them; loses text, EXIF, time and what follows IEND', () => {
    const ihdr = chunk('IHDR', Buffer.alloc(13, 1));
    const gama = chunk('gAMA', Buffer.alloc(4, 2));
    const idat = chunk('IDAT', Buffer.from('pixels'));
    const iend = chunk('IEND', Buffer.alloc(0));
    const original = Buffer.concat([
      PNG_SIGNATURE,
      ihdr,
      chunk('tEXt', Buffer.from('Author\0Claire')),
      chunk('eXIf', Buffer.from('GPS')),
      gama,
      chunk('tIME', Buffer.alloc(7)),
      chunk('iTXt', Buffer.from('XML:com.adobe.xmp\0')),
      idat,
      iend,
      Buffer.from('appended'),
    ]);
    expect(Buffer.from(withoutMetadata('image/png', original)!)).toEqual(Buffer.concat([PNG_SIGNATURE, ihdr, gama, idat, iend]));
    expect(withoutMetadata('image/png', Buffer.concat([PNG_SIGNATURE, ihdr, idat]))).toBeUndefined(); // no IEND
  });

  it('a PDF is kept as it is', () => {
    const pdf = Buffer.from('%PDF-1.4\n%%EOF');
    expect(withoutMetadata('application/pdf', pdf)).toBe(pdf);
  });
});

describe('object keys', () => {
  it('name one claim and file, and nothing else', () => {
    const claim = `clm_${'a'.repeat(24)}`;
    const file = `fi_${'B'.repeat(24)}`;
    expect(objectOf(uploadKey(claim, file))).toEqual({ kind: 'upload', claimId: claim, fileId: file });
    expect(objectOf(storedKey(claim, file, 3))).toEqual({ kind: 'stored', claimId: claim, fileId: file, landing: 3 });
    for (const other of [`uploads/${claim}/${file}/x`, `uploads/${claim}/../${file}`, `bordereaux/${claim}`, `files/${claim}/${file}/0`, `uploads/${claim}`])
      expect(objectOf(other)).toBeUndefined();
  });
});
