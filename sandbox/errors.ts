export type ErrorCode =
	| 'unauthorized'
	| 'insufficient_scope'
	| 'module_inactive'
	| 'not_found'
	| 'validation_failed'
	| 'endpoint_disabled'
	| 'unsupported_media_type'
	| 'payload_too_large'
	| 'rate_limited'
	| 'internal_error'
	| 'service_unavailable';

export interface ErrorDetail {
	field: string;
	message: string;
}

export interface ErrorBody {
	error: { code: ErrorCode; message: string; details: ErrorDetail[] };
}

const STATUS_BY_CODE: Record<ErrorCode, number> = {
	unauthorized: 401,
	insufficient_scope: 403,
	module_inactive: 403,
	not_found: 404,
	validation_failed: 400,
	endpoint_disabled: 409,
	unsupported_media_type: 415,
	payload_too_large: 413,
	rate_limited: 429,
	internal_error: 500,
	service_unavailable: 503,
};

/** The one error every API route answers with: `{error: {code, message, details}}`. */
export class ApiError extends Error {
	readonly statusCode: number;

	constructor(
		readonly code: ErrorCode,
		message: string,
		readonly details: ErrorDetail[] = [],
		readonly headers: Record<string, string> = {},
	) {
		super(message);
		this.statusCode = STATUS_BY_CODE[code];
	}

	toBody(): ErrorBody {
		return { error: { code: this.code, message: this.message, details: this.details } };
	}
}

export function validationError(details: ErrorDetail[]): ApiError {
	const summary = details.map((detail) => `${detail.field} ${detail.message}`).join('; ');
	return new ApiError('validation_failed', `Invalid request: ${summary}`, details);
}

export function notFound(resource: string, id: string): ApiError {
	return new ApiError('not_found', `No ${resource} with id ${id} exists in this organization`);
}

interface AjvError {
	instancePath: string;
	keyword: string;
	params: Record<string, unknown>;
	message?: string;
}

function describeAjvError(error: AjvError): string {
	switch (error.keyword) {
		case 'required':
			return 'is required';
		case 'additionalProperties':
			return 'is not a known field';
		case 'enum':
			return `must be one of: ${(error.params.allowedValues as unknown[]).join(', ')}`;
		case 'format':
			return error.params.format === 'uuid'
				? 'must be a UUID'
				: `must be a valid ${error.params.format}`;
		case 'minLength':
			return error.params.limit === 1 ? 'must not be empty' : (error.message ?? 'is too short');
		case 'type':
			return `must be of type ${String(error.params.type).replace(',', ' or ')}`;
		default:
			return error.message ?? 'is invalid';
	}
}

/** `/contact/email` → `contact.email`; `/events/0` → `events[0]`. */
function fieldPath(instancePath: string, child?: unknown): string {
	const segments = instancePath.split('/').slice(1);
	if (child !== undefined) segments.push(String(child));
	return segments.reduce(
		(path, segment) =>
			/^\d+$/.test(segment) ? `${path}[${segment}]` : path ? `${path}.${segment}` : segment,
		'',
	);
}

/** Maps Ajv's errors to details naming each field; the body itself is called `body`. */
export function detailsFromAjv(errors: AjvError[]): ErrorDetail[] {
	const seen = new Set<string>();
	const details: ErrorDetail[] = [];
	for (const error of errors) {
		// A failed `anyOf`/`oneOf`/`if` repeats what its branches already said.
		if (['anyOf', 'oneOf', 'if'].includes(error.keyword)) continue;
		const child = error.params.missingProperty ?? error.params.additionalProperty;
		const field = fieldPath(error.instancePath, child) || 'body';
		const detail = { field, message: describeAjvError(error) };
		const key = `${detail.field}:${detail.message}`;
		if (seen.has(key)) continue;
		seen.add(key);
		details.push(detail);
	}
	return details;
}
