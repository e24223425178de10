/**
 * A set of fingerprints (whole numbers below 2^bits) in as few characters as JSON allows: sorted,
 * the gaps between them Golomb-Rice coded, the bits written in Z85; a large set in buckets.
 *
 * Why Rice: the gaps between n fingerprints spread evenly over 2^bits are close to geometric, and a
 * Rice code with parameter k ≈ log2(mean gap · ln 2) comes within a few percent of their entropy:
 * about bits − log2(n) + 1.5 bits a fingerprint, against `bits` each written out.
 * Why Z85 (ZeroMQ's base 85): 5 characters for 4 bytes against base64's 5⅓, and none of its
 * characters needs escaping in JSON.
 *
 * The string: one Z85 digit for k, then the bit stream in Z85. The stream ends in 1-bits up to a
 * whole 4 bytes: a run of 1-bits with no 0 after it is no quotient, so the reader stops there.
 */
const Z85 = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#';
const Z85_VALUE = new Map([...Z85].map((character, value) => [character, value]));
const TWO_TO_32 = 2 ** 32;

const TWO_TO_24 = 2 ** 24;

/** Bits into bytes, most significant first; at most 31 bits pending between calls. */
class BitWriter {
	private readonly bytes: Uint8Array;

	private length = 0;

	private pending = 0;

	private pendingBits = 0;

	constructor(capacityBits: number) {
		this.bytes = new Uint8Array(Math.ceil(capacityBits / 32) * 4 + 4);
	}

	/** Writes the `count` (≤ 24) low bits of `value`. */
	private writeShort(value: number, count: number): void {
		this.pending = (this.pending << count) | value;
		this.pendingBits += count;
		while (this.pendingBits >= 8) {
			this.pendingBits -= 8;
			this.bytes[this.length++] = (this.pending >>> this.pendingBits) & 0xff;
		}
		this.pending &= (1 << this.pendingBits) - 1;
	}

	/** `quotient` 1-bits, then a 0. */
	writeUnary(quotient: number): void {
		let ones = quotient;
		for (; ones >= 23; ones -= 23) this.writeShort(0x7fffff, 23);
		this.writeShort(((1 << ones) - 1) << 1, ones + 1);
	}

	/** Writes the `count` low bits of `value` (a whole number below 2^53). */
	write(value: number, count: number): void {
		if (count > 24) {
			this.write(Math.floor(value / TWO_TO_24), count - 24);
			this.writeShort(value % TWO_TO_24, 24);
		} else {
			this.writeShort(value, count);
		}
	}

	/** The bytes, padded with 1-bits to a whole number of 4-byte words. */
	finish(): Uint8Array {
		if (this.pendingBits > 0)
			this.writeShort((1 << (8 - this.pendingBits)) - 1, 8 - this.pendingBits);
		while (this.length % 4 !== 0) this.bytes[this.length++] = 0xff;
		return this.bytes.subarray(0, this.length);
	}
}

class BitReader {
	private position = 0;

	constructor(private readonly bytes: Uint8Array) {}

	get remaining(): number {
		return this.bytes.length * 8 - this.position;
	}

	/** The 1-bits before the next 0, and the 0; undefined when the bits end first. */
	readUnary(): number | undefined {
		let quotient = 0;
		while (this.remaining > 0) {
			const offset = this.position & 7;
			const rest = (this.bytes[this.position >>> 3] << offset) & 0xff;
			const ones = Math.clz32(~(rest << 24));
			if (ones < 8 - offset) {
				this.position += ones + 1;
				return quotient + ones;
			}
			quotient += 8 - offset;
			this.position += 8 - offset;
		}
		return undefined;
	}

	/** Reads `count` bits (the caller has checked they remain). */
	read(count: number): number {
		let value = 0;
		let left = count;
		while (left > 0) {
			const offset = this.position & 7;
			const take = Math.min(8 - offset, left);
			const bits = (this.bytes[this.position >>> 3] >>> (8 - offset - take)) & ((1 << take) - 1);
			value = value * 2 ** take + bits;
			this.position += take;
			left -= take;
		}
		return value;
	}
}

function toZ85(bytes: Uint8Array): string {
	let text = '';
	for (let at = 0; at < bytes.length; at += 4) {
		let word = bytes[at] * 2 ** 24 + ((bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]);
		const digits: string[] = [];
		for (let digit = 0; digit < 5; digit++) {
			digits.push(Z85[word % 85]);
			word = Math.floor(word / 85);
		}
		text += digits.reverse().join('');
	}
	return text;
}

/** undefined for anything that is not Z85 (a length not a multiple of 5, a foreign character). */
function fromZ85(text: string): Uint8Array | undefined {
	if (text.length % 5 !== 0) return undefined;
	const bytes = new Uint8Array((text.length / 5) * 4);
	for (let at = 0; at < text.length; at += 5) {
		let word = 0;
		for (let digit = 0; digit < 5; digit++) {
			const value = Z85_VALUE.get(text[at + digit]);
			if (value === undefined) return undefined;
			word = word * 85 + value;
		}
		if (word >= TWO_TO_32) return undefined;
		const out = (at / 5) * 4;
		bytes[out] = Math.floor(word / 2 ** 24);
		bytes[out + 1] = (word >>> 16) & 0xff;
		bytes[out + 2] = (word >>> 8) & 0xff;
		bytes[out + 3] = word & 0xff;
	}
	return bytes;
}

/** The Rice parameter for `count` fingerprints below 2^bits: log2 of the mean gap times ln 2. */
function riceParameter(count: number, bits: number): number {
	const meanGap = 2 ** bits / (count + 1);
	return Math.max(0, Math.min(Z85.length - 1, Math.floor(Math.log2(meanGap * Math.LN2))));
}

/** `fingerprints`: distinct whole numbers in [0, 2^bits), any order. */
export function encodeFingerprints(fingerprints: number[], bits: number): string {
	const sorted = Float64Array.from(fingerprints).sort();
	const k = riceParameter(sorted.length, bits);
	const divisor = 2 ** k;
	const quotients = sorted.length > 0 ? Math.floor(sorted[sorted.length - 1] / divisor) : 0;
	const writer = new BitWriter(sorted.length * (k + 1) + quotients);
	let previous = 0;
	for (const fingerprint of sorted) {
		const gap = fingerprint - previous;
		previous = fingerprint;
		writer.writeUnary(Math.floor(gap / divisor));
		writer.write(gap % divisor, k);
	}
	return Z85[k] + toZ85(writer.finish());
}

/**
 * The fingerprints, ascending; unreadable text (hand-edited, cut short) yields those read before
 * it went wrong, or none.
 */
export function decodeFingerprints(text: string): number[] {
	const k = Z85_VALUE.get(text.charAt(0));
	const bytes = k === undefined ? undefined : fromZ85(text.slice(1));
	if (k === undefined || bytes === undefined) return [];
	const divisor = 2 ** k;
	const reader = new BitReader(bytes);
	const fingerprints: number[] = [];
	let previous = 0;
	for (;;) {
		const quotient = reader.readUnary();
		if (quotient === undefined || reader.remaining < k) return fingerprints;
		previous += quotient * divisor + reader.read(k);
		fingerprints.push(previous);
	}
}

/**
 * Above this many fingerprints a set is split into buckets by its top bits, 2, 4, 8… of them, each
 * coded on its own and joined by spaces (not a Z85 character): a change to the set re-encodes one
 * bucket, not the whole set, at no cost in size (a bucket's index is the bits its values leave out).
 */
const BUCKET_SIZE = 128;

/** A set's encoding, bucket by bucket, each with what tells whether it changed since. */
export interface SetEncoding extends BucketEncoding {
	buckets: BucketEncoding[];
}

interface BucketEncoding {
	count: number;
	/** Of the values, exact: at most 2^53 (2^16 fingerprints of 37 bits). */
	sum: number;
	text: string;
}

function bucketBits(count: number): number {
	let bits = 0;
	while (count > BUCKET_SIZE << bits) bits++;
	return bits;
}

/**
 * `fingerprints`: distinct whole numbers in [0, 2^bits). A bucket of `previous` with the same
 * count and sum is taken as it is: sets that differ by a few ids a change apart never share both.
 */
export function encodeFingerprintSet(
	fingerprints: number[],
	bits: number,
	previous?: SetEncoding,
): SetEncoding {
	const split = bucketBits(fingerprints.length);
	const width = 2 ** (bits - split);
	const counts = new Array<number>(2 ** split).fill(0);
	const sums = new Array<number>(2 ** split).fill(0);
	for (const fingerprint of fingerprints) {
		const bucket = Math.floor(fingerprint / width);
		counts[bucket]++;
		sums[bucket] += fingerprint % width;
	}
	const reusable = previous?.buckets.length === counts.length ? previous.buckets : [];
	const changed = counts.map(
		(count, bucket) => reusable[bucket]?.count !== count || reusable[bucket].sum !== sums[bucket],
	);
	const values = counts.map((_, bucket) => (changed[bucket] ? ([] as number[]) : undefined));
	if (changed.includes(true)) {
		for (const fingerprint of fingerprints) {
			values[Math.floor(fingerprint / width)]?.push(fingerprint % width);
		}
	}
	const buckets = counts.map((count, bucket) => {
		const changedValues = values[bucket];
		if (changedValues === undefined) return reusable[bucket];
		return { count, sum: sums[bucket], text: encodeFingerprints(changedValues, bits - split) };
	});
	return {
		count: fingerprints.length,
		sum: buckets.reduce(
			(total, bucket, index) => total + bucket.sum + index * width * bucket.count,
			0,
		),
		text: buckets.map((bucket) => bucket.text).join(' '),
		buckets,
	};
}

/**
 * The fingerprints of a set's text, but for the buckets `skip` names (say, because they are known
 * already). Unreadable text yields what could be read, or nothing.
 */
export function decodeFingerprintSet(
	text: string,
	bits: number,
	skip: (index: number, bucketText: string) => boolean = () => false,
): number[] {
	const parts = text.split(' ');
	const split = Math.log2(parts.length);
	if (!Number.isInteger(split) || split > bits) return [];
	const width = 2 ** (bits - split);
	const fingerprints: number[] = [];
	parts.forEach((part, index) => {
		if (skip(index, part)) return;
		for (const value of decodeFingerprints(part)) {
			if (value < width) fingerprints.push(index * width + value);
		}
	});
	return fingerprints;
}
