package io.clrheap.walker.discovery;

/** Why a heap_segment is not walked (docs/reference/discovery.md section 6; docs/reference/walker-semantics.md for the checks). */
public enum Rejection {
    /** {@code allocated} is 0 and it is not the ephemeral region: a freed region (gcpriv.h heap_segment.allocated). */
    FREED("allocated 0 marks a freed region: nothing to walk"),
    /** {@code mem <= end <= committed <= reserved} does not hold. */
    BAD_BOUNDS("its bounds are out of order: the region is not walked"),
    /** Its objects overlap those of a region lower in memory. */
    OVERLAPPING("its objects overlap another region's: the region is not walked"),
    /** It comes again in the same list: the list is cut before it. */
    REPEATED("this heap_segment comes again in the same list; the chain is cut here"),
    /** Another generation's list already holds it (segments mode: gen0 and gen1 start inside gen2's list). */
    ALREADY_LISTED("already listed from another generation's list (segments mode); so is the rest"),
    /** More regions than the walk limits allow: the rest of the list is not followed. */
    OVER_BUDGET("more regions than the walk limits allow; the rest are not followed"),
    /** Its heap_segment cannot be read: the list is cut here. */
    UNREADABLE("heap_segment cannot be read; the chain is cut here");

    private final String text;

    Rejection(String text) {
        this.text = text;
    }

    /** What the walk does about it, in a sentence. */
    public String text() {
        return text;
    }
}
