// Strict UTF-8, the one way reportctl turns bytes into text: every file and stdin the CLI
// reads, the snapshots admin loads, and the service's request bodies. Bytes that are not
// UTF-8 are refused where they start, never read as U+FFFD. Pure: nothing but the language.

/** Fatal on the first ill-formed sequence; a leading byte order mark (EF BB BF) is dropped. */
const decoder = new TextDecoder('utf-8', { fatal: true });

/** Bytes that are not UTF-8: where the first ill-formed sequence starts, and what it is. */
export class NotUtf8Error extends Error {
  constructor(
    /** 0-based offset of the byte that starts the ill-formed sequence. */
    readonly offset: number,
    /** That byte. */
    readonly byte: number,
    /** 1-based line of that byte (the newlines before it, plus one). */
    readonly line: number,
    /** Where and what, in words: `at byte offset 7 (line 1), 0xF1 begins an incomplete character`. */
    readonly reason: string,
  ) {
    super(`not UTF-8: ${reason}`);
    this.name = 'NotUtf8Error';
  }
}

/**
 * `bytes` as text, or NotUtf8Error at the first byte that does not begin a well-formed
 * character (Unicode's table 3-7: no overlong forms, no surrogates, nothing past U+10FFFF).
 * A UTF-8 byte order mark at the start is not part of the text and is dropped.
 */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return decoder.decode(bytes);
  } catch {
    throw faultIn(bytes);
  }
}

type Fault = 'continuation' | 'overlong' | 'surrogate' | 'past-max' | 'never' | 'incomplete';

const WORDS: Record<Fault, string> = {
  continuation: 'is a continuation byte with no character to continue',
  overlong: 'begins an overlong encoding',
  surrogate: 'begins an encoded UTF-16 surrogate',
  'past-max': 'begins a code point past U+10FFFF',
  never: 'never occurs in UTF-8',
  incomplete: 'begins an incomplete character',
};

/** A lead byte's sequence length and the range its second byte must fall in (else `below`/`above`). */
interface Lead {
  length: number;
  min: number;
  max: number;
  below?: Fault;
  above?: Fault;
}

function leadOf(byte: number): Lead | Fault {
  if (byte < 0xc0) return 'continuation'; // 0x80–0xBF (ASCII never reaches here)
  if (byte < 0xc2) return 'overlong';
  if (byte < 0xe0) return { length: 2, min: 0x80, max: 0xbf };
  if (byte === 0xe0) return { length: 3, min: 0xa0, max: 0xbf, below: 'overlong' };
  if (byte === 0xed) return { length: 3, min: 0x80, max: 0x9f, above: 'surrogate' };
  if (byte < 0xf0) return { length: 3, min: 0x80, max: 0xbf };
  if (byte === 0xf0) return { length: 4, min: 0x90, max: 0xbf, below: 'overlong' };
  if (byte < 0xf4) return { length: 4, min: 0x80, max: 0xbf };
  if (byte === 0xf4) return { length: 4, min: 0x80, max: 0x8f, above: 'past-max' };
  return byte < 0xf8 ? 'past-max' : 'never';
}

const isContinuation = (byte: number | undefined) => byte !== undefined && byte >= 0x80 && byte <= 0xbf;

/** What is wrong with the sequence at `at`, or its length when it is well formed. */
function sequenceAt(bytes: Uint8Array, at: number): number | Fault {
  const lead = leadOf(bytes[at]!);
  if (typeof lead === 'string') return lead;
  const second = bytes[at + 1];
  if (!isContinuation(second)) return 'incomplete';
  if (second! < lead.min) return lead.below ?? 'incomplete';
  if (second! > lead.max) return lead.above ?? 'incomplete';
  for (let next = 2; next < lead.length; next++) if (!isContinuation(bytes[at + next])) return 'incomplete';
  return lead.length;
}

function faultIn(bytes: Uint8Array): NotUtf8Error {
  let line = 1;
  for (let at = 0; at < bytes.length; ) {
    const byte = bytes[at]!;
    if (byte < 0x80) {
      if (byte === 0x0a) line++;
      at++;
      continue;
    }
    const sequence = sequenceAt(bytes, at);
    if (typeof sequence === 'number') {
      at += sequence;
      continue;
    }
    const hex = `0x${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    const utf16 = at === 0 && ((byte === 0xff && bytes[1] === 0xfe) || (byte === 0xfe && bytes[1] === 0xff));
    const words = utf16 ? `${WORDS[sequence]} (${hex === '0xFF' ? 'FF FE' : 'FE FF'} is a UTF-16 byte order mark)` : WORDS[sequence];
    return new NotUtf8Error(at, byte, line, `at byte offset ${at} (line ${line}), ${hex} ${words}`);
  }
  // The decoder refused what this scan accepts: say so rather than point at nothing.
  return new NotUtf8Error(0, bytes[0] ?? 0, 1, 'at byte offset 0 (line 1), the decoder refused the text');
}
