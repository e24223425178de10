import { createHash } from 'node:crypto';

import {
	decodeFingerprints,
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
