package io.clrheap.conformance.corpus;

/** How a fixture's file differs between the corpus and a fresh build: a Linux fixture's bundle or a Windows fixture's minidump. */
public sealed interface DumpDifference permits BundleDifference, MinidumpDifference {

    /** Where the file is; when only in one, nothing else is known. */
    Presence presence();

    /** One line, starting with what the file is: {@code bundle 61,760 -> 61,804 bytes, ...}, {@code minidump ...}. */
    String describe();
}
