package io.clrheap.capture;

/** A range of the input core, by file offset, written as zeros in the trimmed core. */
record BlankRange(long fileOffset, long length) {
}
