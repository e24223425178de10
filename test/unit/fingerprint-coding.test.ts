import { createHash } from 'node:crypto';

import {
	decodeFingerprintSet,
	decodeFingerprints,
	encodeFingerprintSet,
	encodeFingerprints,
} from '../../nodes/WorkforceManagementTrigger/duplicates/fingerprintCoding';

const BITS = 37;

/** `count` distinct fingerprints below 2^bits, as SHA-256 spreads them. */
function fingerprints(count: number, bits = BITS, salt = 'evt'): number[] {
	const values = new Set<number>();
	for (let index = 0; values.size < count; index++) {
		const digest = createHash('sha256').update(`${salt}_${index}`).digest();
		values.add(Math.floor(digest.readUIntBE(0, 6) / 2 ** (48 - bits)));
	}
	return [...values];
}

const ascending = (values: number[]) => [...values].sort((left, right) => left - right);

describe('encodeFingerprints / decodeFingerprints', () => {
	it.each([0, 1, 2, 7, 100, 3000])('round-trips %i fingerprints, ascending', (count) => {
		const values = fingerprints(count);
		expect(decodeFingerprints(encodeFingerprints(values, BITS))).toEqual(ascending(values));
	});

	it('round-trips the extremes: 0, 1 and 2^bits − 1, and a set dense enough for a Rice parameter of 0', () => {
		const extremes = [0, 1, 2 ** BITS - 1];
		expect(decodeFingerprints(encodeFingerprints(extremes, BITS))).toEqual(extremes);
		const dense = Array.from({ length: 64 }, (_, index) => index);
		const encoded = encodeFingerprints(dense, 6);
		expect(encoded[0]).toBe('0');
		expect(decodeFingerprints(encoded)).toEqual(dense);
	});

	it('writes nothing JSON escapes, within 3% of bits − log2(n) + 1.5 bits a fingerprint (Z85: 8/6.41 characters a byte)', () => {
		for (const count of [100, 3000]) {
			const encoded = encodeFingerprints(fingerprints(count), BITS);
			expect(JSON.stringify(encoded)).toBe(`"${encoded}"`);
			const bitsEach = (encoded.length * Math.log2(85)) / count;
			expect(bitsEach).toBeLessThan((BITS - Math.log2(count) + 1.5) * 1.03);
		}
	});

	it('yields what it read before anything unreadable, and never throws', () => {
		const values = ascending(fingerprints(50));
		const encoded = encodeFingerprints(values, BITS);
		expect(decodeFingerprints('')).toEqual([]);
		expect(decodeFingerprints('"not z85"')).toEqual([]);
		expect(decodeFingerprints(`${encoded}x`)).toEqual([]);
		const cutShort = decodeFingerprints(encoded.slice(0, encoded.length - 20));
		expect(cutShort.length).toBeGreaterThan(0);
		expect(cutShort).toEqual(values.slice(0, cutShort.length));
		expect(decodeFingerprints('#####')).toEqual([]);
	});
});

describe('encodeFingerprintSet / decodeFingerprintSet: a set in buckets of at most 128', () => {
	it.each([0, 1, 128, 129, 1000, 3000])(
		'round-trips %i fingerprints in 2^⌈log2(n/128)⌉ buckets',
		(count) => {
			const values = fingerprints(count);
			const encoding = encodeFingerprintSet(values, BITS);
			expect(encoding.buckets).toHaveLength(2 ** Math.max(0, Math.ceil(Math.log2(count / 128))));
			expect(ascending(decodeFingerprintSet(encoding.text, BITS))).toEqual(ascending(values));
		},
	);

	it('re-encodes only the buckets a change touched, to the same text as from scratch', () => {
		const values = fingerprints(1000);
		const before = encodeFingerprintSet(values, BITS);
		const changed = [...values.slice(1), ...fingerprints(1, BITS, 'new')];
		const after = encodeFingerprintSet(changed, BITS, before);
		expect(after.text).toBe(encodeFingerprintSet(changed, BITS).text);
		const reused = after.buckets.filter((bucket, index) => bucket === before.buckets[index]);
		expect(reused.length).toBeGreaterThanOrEqual(before.buckets.length - 2);
		expect(reused.length).toBeLessThan(before.buckets.length);
	});

	it('skips the buckets it is told to, and reads nothing from a bucket count that is not a power of two', () => {
		const values = fingerprints(300);
		const { text, buckets } = encodeFingerprintSet(values, BITS);
		const firstSkipped = decodeFingerprintSet(text, BITS, (index) => index === 0);
		expect(firstSkipped).toHaveLength(300 - buckets[0].count);
		expect(decodeFingerprintSet(`${text} ${buckets[0].text}`, BITS)).toEqual([]);
	});
});
