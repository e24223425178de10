/**
 * A Map holding at most `limit` entries: writing a new one drops the one written longest ago. For
 * what a process remembers per sealed value or endpoint, so that no traffic can grow it unbounded.
 */
/**
 * How many endpoints, secrets or triggers each per-process cache keeps, so that no traffic can grow
 * it. Past it, the entry written longest ago is dropped and costs its first lookup again (a
 * credential load, a look at the endpoint, a log line).
 */
export const PER_PROCESS_ENTRIES = 256;

export class BoundedMap<K, V> extends Map<K, V> {
	constructor(private readonly limit: number) {
		super();
	}

	override set(key: K, value: V): this {
		this.delete(key);
		if (this.size >= this.limit) this.delete(this.keys().next().value as K);
		return super.set(key, value);
	}
}
