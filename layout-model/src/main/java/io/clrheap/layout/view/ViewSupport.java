package io.clrheap.layout.view;

/** Small helpers the generated views call (public so that generated classes can link to them). */
public final class ViewSupport {

    private ViewSupport() {
    }

    public static boolean isTrue(int value) {
        return value != 0;
    }

    public static boolean isTrue(long value) {
        return value != 0;
    }

    public static String describe(String structure, long address) {
        return structure + "@0x" + Long.toHexString(address);
    }
}
