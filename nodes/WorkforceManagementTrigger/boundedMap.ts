/**
 * A Map holding at most `limit` entries: writing a new one drops the one written longest ago. For
 * what a process remembers per sealed value or endpoint, so that no traffic can grow it unbounded.
 */
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
