package io.clrheap.walker.metadata;

/**
 * How a PE image lies in process memory (docs/reference/type-names.md section 2): {@code MAPPED} (a loaded layout:
 * RVA = offset from the base) or {@code FLAT} (the file's bytes as-is: an RVA goes through the section table).
 */
public enum ImageLayoutKind {
    MAPPED, FLAT
}
