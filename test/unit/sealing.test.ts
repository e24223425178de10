import {
	deriveSealingKey,
	isSealed,
	open,
	seal,
	SEALED_PREFIX,
} from '../../nodes/WorkforceManagementTrigger/secrets/sealing';

const SECRET = 'whsec_3f9a1c0b7d2e4f5a6b7c8d9e0f1a2b3c'; // example value
const key = deriveSealingKey('wfm_live_acme_all', 'we_0001');

/** Flips one bit of one base64url part of a sealed value (0: iv, 1: ciphertext, 2: tag). */
function tamper(sealed: string, partIndex: number): string {
	const parts = sealed.slice(SEALED_PREFIX.length).split('.');
	const bytes = Buffer.from(parts[partIndex], 'base64url');
	bytes[0] ^= 0x01;
	parts[partIndex] = bytes.toString('base64url');
	return SEALED_PREFIX + parts.join('.');
}

describe('seal and open', () => {
	it('round-trips, and the sealed text shows nothing of the secret', () => {
		const sealed = seal(SECRET, key);
		expect(sealed.startsWith('wfmseal.v1.')).toBe(true);
		expect(isSealed(sealed)).toBe(true);
		expect(sealed).not.toContain('whsec_');
		expect(sealed).not.toContain(SECRET.slice(-8));
		expect(open(sealed, key)).toBe(SECRET);
	});

	it('seals the same secret differently each time (random IV)', () => {
		expect(seal(SECRET, key)).not.toBe(seal(SECRET, key));
	});

	it('derives a key per API key and per endpoint, and the same key for the same pair', () => {
		expect(deriveSealingKey('wfm_live_acme_all', 'we_0001')).toEqual(key);
		expect(key).toHaveLength(32);
		const sealed = seal(SECRET, key);
		expect(open(sealed, deriveSealingKey('wfm_live_acme_other', 'we_0001'))).toBeUndefined();
		expect(open(sealed, deriveSealingKey('wfm_live_acme_all', 'we_0002'))).toBeUndefined();
	});

	it.each([
		['the IV', 0],
		['the ciphertext', 1],
		['the tag', 2],
	])('does not open when %s was altered', (_label, partIndex) => {
		expect(open(tamper(seal(SECRET, key), partIndex), key)).toBeUndefined();
	});

	it.each([
		['a plain secret', SECRET],
		['another version', seal(SECRET, key).replace('wfmseal.v1.', 'wfmseal.v2.')],
		['a missing part', seal(SECRET, key).split('.').slice(0, -1).join('.')],
		['an extra part', `${seal(SECRET, key)}.AAAA`],
		['a short tag', seal(SECRET, key).slice(0, -4)],
		['the prefix alone', SEALED_PREFIX],
		['not a string', { sealed: true }],
		['undefined', undefined],
	])('answers undefined, never throws, for %s', (_label, value) => {
		expect(open(value, key)).toBeUndefined();
	});

	it('does not open under a key of the wrong length', () => {
		expect(open(seal(SECRET, key), Buffer.alloc(16))).toBeUndefined();
	});
});

describe('the format wfmseal.v1: values already in static data keep opening', () => {
	// example values, sealed once with this format's recipe and kept here as they were written
	const apiKey = 'wfm_live_known_answer';
	const endpointId = 'we_known_answer';
	const sealedEarlier =
		'wfmseal.v1.Y7Ql9lyR6ZEX4QZw.xiqOcfBJ6ALYVwIS_WhZOeGyU44CAM131_VvdTg.q_0D37jZ0WPmdO1tv9dTkw';

	it('derives the same key: HKDF-SHA256 with the fixed salt and the endpoint in the info', () => {
		expect(deriveSealingKey(apiKey, endpointId).toString('hex')).toBe(
			'84f194a74b0c3c0f1c472013fce115476952222f8883f1fb6a8a515ab5746307',
		);
	});

	it('opens a value sealed earlier', () => {
		expect(open(sealedEarlier, deriveSealingKey(apiKey, endpointId))).toBe(
			'whsec_known_answer_0123456789',
		);
	});
});
