package io.clrheap.walker.runtime.shape;

import io.clrheap.layout.Certainty;

/**
 * Where one field of a structure is in a build, and why.
 *
 * @param field     the field's name (as the profile names it)
 * @param offset    its offset in the structure
 * @param type      its type as the profile writes it ({@code pointer}, {@code generation[5]}, ...)
 * @param certainty {@link Certainty#DUMP} when the GC published it or its shape holds on every heap;
 *                  {@link Certainty#INFERRED} when only its place relative to another field decides (one heap)
 * @param evidence  one line: what was read where
 */
public record FieldFinding(String field, long offset, String type, Certainty certainty, String evidence) {
}
