/**
 * Records keyed by field or attribute names, read and written as own properties only. A site may name a
 * field `constructor`, `toString` or `__proto__`: a plain `record[name]` would read Object.prototype's
 * member for a document without the field, and `record['__proto__'] = v` would replace the prototype.
 */
export function ownValue<T>(record: Readonly<Record<string, T>> | null | undefined, key: string): T | undefined {
  return record && Object.hasOwn(record, key) ? record[key] : undefined;
}

export function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  // `__proto__` is Object.prototype's only accessor; an assignment to any other name makes an own property
  // (its inherited members are writable data properties). defineProperty for every key was 5% of an import.
  if (key === '__proto__')
    Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  else record[key] = value;
}
