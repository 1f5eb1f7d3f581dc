package io.clrheap.walker.metadata;

/**
 * A TypeDef row's name facts.
 *
 * @param rid          the row (1-based)
 * @param flags        TypeAttributes
 * @param namespace    the namespace, empty for none (and for nested types)
 * @param name         the simple name, e.g. {@code Dictionary`2}
 * @param enclosingRid the enclosing TypeDef row from NestedClass, 0 when the type is not nested
 */
public record TypeDefName(int rid, int flags, String namespace, String name, int enclosingRid) {

    /** TypeAttributes.VisibilityMask values 2..7 are the nested visibilities (ECMA-335 II.23.1.15). */
    public static boolean nestedVisibility(int flags) {
        return (flags & 0x7) >= 2;
    }

    public boolean nested() {
        return enclosingRid != 0;
    }

    /** {@code namespace.name}, or the bare name without a namespace. */
    public String qualified() {
        return namespace.isEmpty() ? name : namespace + "." + name;
    }
}
