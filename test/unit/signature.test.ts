import { DEFAULT_TOLERANCE_SECONDS } from '../../nodes/WorkforceManagementTrigger/options';
import {
	parseSignatureHeader,
	verifySignature,
	type SignatureCheck,
} from '../../nodes/WorkforceManagementTrigger/verification/signature';
import { hmacSignature as sign } from '../../harness/signed-delivery';

const SECRET = 'whsec_test_vector_secret';
const NOW = 1_767_225_600; // 2026-01-01T00:00:00Z
const BODY = Buffer.from(
	'{"id":"evt_0a1b2c3d","type":"member.created","data":{"business_name":"Zoë Ørsted"}}',
	'utf8',
);

function check(overrides: Partial<SignatureCheck> = {}): SignatureCheck {
	return {
		rawBody: BODY,
		header: `t=${NOW},v1=${sign(SECRET, NOW, BODY)}`,
		secrets: [SECRET],
		nowSeconds: NOW,
		toleranceSeconds: DEFAULT_TOLERANCE_SECONDS,
		...overrides,
	};
}

describe('verifySignature', () => {
	it('accepts a known-answer vector (computed with openssl dgst -sha256 -hmac)', () => {
		const header = `t=${NOW},v1=9b8938a6593bb760cbaf55319a66253b0b875e75df25ebaea2e4d8872634edc7`;
		expect(verifySignature(check({ header }))).toEqual({ valid: true, timestamp: NOW });
	});

	it.each([Number.NaN, Number.POSITIVE_INFINITY, 0, -5, '300' as unknown as number])(
		'refuses every delivery when the tolerance is %p, not a positive number (fails closed)',
		(toleranceSeconds) => {
			const stale = NOW - 10 * 365 * 86_400;
			const header = `t=${stale},v1=${sign(SECRET, stale, BODY)}`;
			expect(verifySignature(check({ header, toleranceSeconds }))).toEqual({
				valid: false,
				reason: 'invalid_tolerance',
			});
		},
	);

	it('accepts a valid signature', () => {
		expect(verifySignature(check())).toEqual({ valid: true, timestamp: NOW });
	});

	it.each([16, 32, 63])(
		'refuses a signature that differs only in hex digit %p (every digit is compared)',
		(position) => {
			const valid = sign(SECRET, NOW, BODY);
			const flipped = valid[position] === '0' ? '1' : '0';
			const header = `t=${NOW},v1=${valid.slice(0, position)}${flipped}${valid.slice(position + 1)}`;
			expect(verifySignature(check({ header }))).toEqual({
				valid: false,
				reason: 'signature_mismatch',
			});
		},
	);

	it('accepts an upper-case hex signature', () => {
		const header = `t=${NOW},v1=${sign(SECRET, NOW, BODY).toUpperCase()}`;
		expect(verifySignature(check({ header })).valid).toBe(true);
	});

	it('rejects a tampered body', () => {
		const tampered = Buffer.from(BODY.toString('utf8').replace('Zoë', 'Zoe'), 'utf8');
		expect(verifySignature(check({ rawBody: tampered }))).toEqual({
			valid: false,
			reason: 'signature_mismatch',
		});
	});

	it('rejects a body whose JSON was re-serialized with different spacing', () => {
		const reserialized = Buffer.from(JSON.stringify(JSON.parse(BODY.toString('utf8')), null, 2));
		expect(reserialized.equals(BODY)).toBe(false);
		expect(verifySignature(check({ rawBody: reserialized }))).toEqual({
			valid: false,
			reason: 'signature_mismatch',
		});
	});

	it('rejects a signature made with another secret', () => {
		const header = `t=${NOW},v1=${sign('whsec_someone_else', NOW, BODY)}`;
		expect(verifySignature(check({ header }))).toEqual({
			valid: false,
			reason: 'signature_mismatch',
		});
	});

	it('rejects a signature whose timestamp was changed after signing', () => {
		const header = `t=${NOW + 1},v1=${sign(SECRET, NOW, BODY)}`;
		expect(verifySignature(check({ header }))).toEqual({
			valid: false,
			reason: 'signature_mismatch',
		});
	});

	describe('timestamp tolerance', () => {
		const at = (timestamp: number) =>
			check({ header: `t=${timestamp},v1=${sign(SECRET, timestamp, BODY)}` });

		it.each([
			['past, on the boundary', NOW - 300],
			['future, on the boundary', NOW + 300],
			['past, just inside', NOW - 299],
			['future, just inside', NOW + 299],
		])('accepts a timestamp in the %s', (_label, timestamp) => {
			expect(verifySignature(at(timestamp)).valid).toBe(true);
		});

		it.each([
			['past', NOW - 301],
			['future', NOW + 301],
			['distant past (a replay)', NOW - 86_400],
		])('rejects a timestamp just outside, in the %s', (_label, timestamp) => {
			expect(verifySignature(at(timestamp))).toEqual({
				valid: false,
				reason: 'timestamp_outside_tolerance',
			});
		});

		it('honours a custom tolerance', () => {
			const timestamp = NOW - 20;
			expect(verifySignature({ ...at(timestamp), toleranceSeconds: 10 }).valid).toBe(false);
			expect(verifySignature({ ...at(timestamp), toleranceSeconds: 30 }).valid).toBe(true);
		});
	});

	it('accepts when only the second of two v1 values matches (secret roll)', () => {
		const header = `t=${NOW},v1=${sign('whsec_old', NOW, BODY)},v1=${sign(SECRET, NOW, BODY)}`;
		expect(verifySignature(check({ header })).valid).toBe(true);
	});

	it('accepts when any of several stored secrets matches', () => {
		expect(verifySignature(check({ secrets: ['whsec_other', SECRET] })).valid).toBe(true);
	});

	it('fails closed when no secret is stored', () => {
		expect(verifySignature(check({ secrets: [] }))).toEqual({ valid: false, reason: 'no_secret' });
		expect(verifySignature(check({ secrets: [''] }))).toEqual({
			valid: false,
			reason: 'no_secret',
		});
	});

	it.each([
		['absent', undefined],
		['empty', ''],
	])('rejects a missing header (%s)', (_label, header) => {
		expect(verifySignature(check({ header }))).toEqual({ valid: false, reason: 'missing_header' });
	});

	const valid = () => sign(SECRET, NOW, BODY);
	it.each([
		['no t', () => `v1=${valid()}`],
		['no v1', () => `t=${NOW}`],
		['only an unknown scheme', () => `t=${NOW},v0=${valid()}`],
		['non-numeric t', () => `t=abc,v1=${valid()}`],
		['fractional t', () => `t=${NOW}.5,v1=${valid()}`],
		['negative t', () => `t=-${NOW},v1=${valid()}`],
		['empty t', () => `t=,v1=${valid()}`],
		['empty v1', () => `t=${NOW},v1=`],
		['element without "="', () => `t=${NOW},v1`],
		['space inside an element', () => `t= ${NOW},v1=${valid()}`],
		['space around "="', () => `t = ${NOW},v1=${valid()}`],
		['two timestamps', () => `t=${NOW},t=${NOW},v1=${valid()}`],
		['semicolons instead of commas', () => `t=${NOW};v1=${valid()}`],
		['repeated header (array)', () => [`t=${NOW},v1=${valid()}`, `t=${NOW},v1=${valid()}`]],
	])('rejects a malformed header: %s', (_label, header) => {
		expect(verifySignature(check({ header: header() }))).toEqual({
			valid: false,
			reason: 'malformed_header',
		});
	});

	it('tolerates spaces around the comma-separated elements', () => {
		const header = `  t=${NOW} , v1=${valid()}  `;
		expect(verifySignature(check({ header })).valid).toBe(true);
	});

	it('ignores an unknown scheme next to a valid v1', () => {
		const header = `t=${NOW},v0=deadbeef,v1=${valid()}`;
		expect(verifySignature(check({ header })).valid).toBe(true);
	});

	it('does not trust a v0 value even when it holds the right digest', () => {
		const header = `t=${NOW},v0=${valid()},v1=${sign('whsec_other', NOW, BODY)}`;
		expect(verifySignature(check({ header })).valid).toBe(false);
	});

	it.each([
		['truncated', () => valid().slice(0, 63)],
		['too long', () => `${valid()}00`],
		['not hex', () => `${valid().slice(0, 63)}z`],
	])('rejects a v1 value that is %s', (_label, signature) => {
		expect(verifySignature(check({ header: `t=${NOW},v1=${signature()}` }))).toEqual({
			valid: false,
			reason: 'signature_mismatch',
		});
	});

	it('verifies an empty body', () => {
		const empty = Buffer.alloc(0);
		expect(
			verifySignature(check({ rawBody: empty, header: `t=${NOW},v1=${sign(SECRET, NOW, empty)}` })),
		).toEqual({ valid: true, timestamp: NOW });
		expect(verifySignature(check({ rawBody: empty })).valid).toBe(false);
	});

	it('verifies a body with multi-byte unicode over its bytes, not its characters', () => {
		const body = Buffer.from('{"note":"日本語 🎉 café"}', 'utf8');
		const header = `t=${NOW},v1=${sign(SECRET, NOW, body)}`;
		expect(verifySignature(check({ rawBody: body, header })).valid).toBe(true);
		const latin1 = Buffer.from(body.toString('utf8'), 'latin1');
		expect(verifySignature(check({ rawBody: latin1, header })).valid).toBe(false);
	});
});

describe('parseSignatureHeader', () => {
	it('returns the timestamp and every v1 value in order', () => {
		expect(parseSignatureHeader(`t=${NOW},v1=aa,v0=bb,v1=cc`)).toEqual({
			timestamp: NOW,
			signatures: ['aa', 'cc'],
		});
	});

	it('returns undefined for anything but a string', () => {
		expect(parseSignatureHeader(undefined)).toBeUndefined();
		expect(parseSignatureHeader(['t=1,v1=aa'])).toBeUndefined();
	});

	// Each beside a valid timestamp and signature, so only the bad element can refuse the header.
	it.each([
		['an element without "="', `t=${NOW},v1=aa,junk`],
		['whitespace inside an element', `t=${NOW},v1=a a`],
		['an element without a name', `t=${NOW},v1=aa,=bb`],
		['an element without a value', `t=${NOW},v1=aa,v1=`],
		['an unknown scheme without a value', `t=${NOW},v1=aa,v0=`],
	])('refuses the whole header for %s', (_case, header) => {
		expect(parseSignatureHeader(header)).toBeUndefined();
	});
});
