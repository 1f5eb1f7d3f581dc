package io.clrheap.layout;

/**
 * A global of the runtime's data descriptor: a direct value (number or string) with its type. Globals whose
 * values depend on where the runtime was loaded (addresses) are not in a profile; their positions in
 * {@code g_dacTable} are ({@link DacTable}).
 */
public record GlobalValue(String name, Object value, String type, Provenance provenance) {

    public long longValue() {
        if (value instanceof Long l) {
            return l;
        }
        throw new IllegalStateException("global " + name + " is a string, not a number: " + value);
    }
}
