package io.clrheap.conformance.corpus;

/** Where a file of a fixture is: in the committed corpus, in the fresh build, or both (then its bytes differ). */
public enum Presence {
    /** In both; the bytes differ. */
    BOTH,
    /** Written by the fresh build, missing from the corpus. */
    ONLY_IN_BUILD,
    /** In the corpus, no longer written by clrheap. */
    ONLY_IN_CORPUS
}
