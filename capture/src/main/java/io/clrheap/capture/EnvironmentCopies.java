package io.clrheap.capture;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds copies of the process's {@code KEY=VALUE} environment strings (as found on its initial stack) in other
 * memory — the runtime copies environ into its C heap — so that they are blanked too. A copy is an exact byte match
 * of a whole string; the search anchors on each '=' byte and looks up the key before it.
 */
final class EnvironmentCopies {

    private static final int MIN_LENGTH = 4;

    private final Map<String, List<byte[]>> byKey = new HashMap<>();
    private final Set<Integer> keyLengths = new HashSet<>();
    private int longest;
    private int found;
    private long bytes;
    private final Set<Long> seen = new HashSet<>();

    EnvironmentCopies(List<byte[]> strings) {
        for (byte[] s : strings) {
            int eq = indexOf(s, (byte) '=');
            if (eq <= 0 || s.length < MIN_LENGTH) {
                continue;
            }
            byKey.computeIfAbsent(new String(s, 0, eq, java.nio.charset.StandardCharsets.ISO_8859_1), k -> new ArrayList<>()).add(s);
            keyLengths.add(eq);
            longest = Math.max(longest, s.length);
        }
    }

    private static int indexOf(byte[] s, byte b) {
        for (int i = 0; i < s.length; i++) {
            if (s[i] == b) {
                return i;
            }
        }
        return -1;
    }

    /** A string blanked already (on the stack): not counted as a copy. */
    void alreadyBlanked(long fileOffset) {
        seen.add(fileOffset);
    }

    private static boolean isKeyByte(byte b) {
        return b == '_' || (b >= '0' && b <= '9') || (b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z');
    }

    boolean any() {
        return !byKey.isEmpty();
    }

    int longest() {
        return longest;
    }

    int found() {
        return found;
    }

    long bytes() {
        return bytes;
    }

    /**
     * Adds a blank for every copy whose '=' lies at file offsets [eqFrom, eqTo) of a window of the file starting at
     * {@code windowStart}.
     */
    void find(byte[] window, int length, long windowStart, long eqFrom, long eqTo, List<BlankRange> sink) {
        int from = (int) Math.max(0, eqFrom - windowStart);
        int to = (int) Math.min(length, eqTo - windowStart);
        for (int p = from; p < to; p++) {
            if (window[p] != '=') {
                continue;
            }
            for (int keyLength : keyLengths) {
                int start = p - keyLength;
                if (start < 0 || (start > 0 && isKeyByte(window[start - 1]))) {
                    continue; // not the whole key: NOT_SECRET=x is no copy of SECRET=x
                }
                List<byte[]> candidates = byKey.get(new String(window, start, keyLength, java.nio.charset.StandardCharsets.ISO_8859_1));
                if (candidates == null) {
                    continue;
                }
                for (byte[] s : candidates) {
                    if (start + s.length <= length && Arrays.equals(window, start, start + s.length, s, 0, s.length)) {
                        long at = windowStart + start;
                        if (seen.add(at)) {
                            sink.add(new BlankRange(at, s.length));
                            found++;
                            bytes += s.length;
                        }
                    }
                }
            }
        }
    }
}
