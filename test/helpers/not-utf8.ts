// Text that is not UTF-8, as files hold it: one sample per way of going wrong, and documents
// with a sample inside at a known byte offset.

export interface NotUtf8Sample {
  name: string;
  bytes: Buffer;
  /** Where in `bytes` the first ill-formed sequence starts. */
  badAt: number;
}

export const NOT_UTF8_SAMPLES: readonly NotUtf8Sample[] = [
  // "Lote Peñón" saved as ISO-8859-1: ñ is the single byte 0xF1, which UTF-8 reads as a lead byte.
  { name: 'Latin-1 (Lote Peñón)', bytes: Buffer.from('Lote Peñón', 'latin1'), badAt: 'Lote Pe'.length },
  { name: 'a lone continuation byte', bytes: Buffer.from([0x4c, 0x6f, 0x74, 0x65, 0x80]), badAt: 4 },
  // "/" in two bytes (C0 AF): the shortest form is the only one UTF-8 allows.
  { name: 'an overlong encoding', bytes: Buffer.from([0x61, 0xc0, 0xaf]), badAt: 1 },
  // U+D800 encoded as if it were a character (ED A0 80): CESU-8, not UTF-8.
  { name: 'a surrogate', bytes: Buffer.from([0x61, 0x62, 0xed, 0xa0, 0x80]), badAt: 2 },
];

/** `text` with `sample` in place of its one `@@`, and where the first bad byte lands (offset, line). */
export function withSample(text: string, sample: NotUtf8Sample): { bytes: Buffer; offset: number; line: number } {
  const [before, after] = text.split('@@') as [string, string];
  const head = Buffer.from(before);
  return {
    bytes: Buffer.concat([head, sample.bytes, Buffer.from(after)]),
    offset: head.length + sample.badAt,
    line: before.split('\n').length,
  };
}

/** What every refusal says about where: `at byte offset 17 (line 1)`. */
export const whereIn = ({ offset, line }: { offset: number; line: number }) => `not UTF-8: at byte offset ${offset} (line ${line})`;
