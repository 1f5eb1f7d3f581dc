package io.clrheap.walker.runtime.shape;

import io.clrheap.layout.Certainty;

/**
 * Where one {@code g_dacTable} entry is, and why: {@code certainty} is {@link Certainty#DUMP} when what the entry
 * points at has the entry's own shape, {@link Certainty#INFERRED} when only dacvars.h order (and a weak shape, such as
 * "a null or readable pointer") places it.
 *
 * @param entry     the entry
 * @param index     its index in g_dacTable
 * @param certainty how sure
 * @param evidence  one line: what was read where
 */
public record EntryFinding(DacEntry entry, int index, Certainty certainty, String evidence) {
}
