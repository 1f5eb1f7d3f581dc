package io.clrheap.walker.runtime.shape;

import io.clrheap.memory.Memory;
import io.clrheap.memory.MemoryRange;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.runtime.LocatedRuntime;
import io.clrheap.walker.source.elf.MappedFile;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A runtime build's identity as its own module says it: the sccsid string {@code @(#)Version 10.0.326.7603 @Commit: c2435c3e...}
 * in the module's data (libcoreclr.so, or the single-file host), else {@code DotNetRuntimeInfo}'s RuntimeVersion (no
 * commit). The file version's third part is the patch times 100 plus a two-digit number: 9.0.725.x is 9.0.7.
 *
 * @param version     {@code major.minor.patch}, e.g. {@code 10.0.3}
 * @param fileVersion the four-part file version, e.g. {@code 10.0.326.7603}
 * @param commit      the dotnet/runtime commit, empty when only DotNetRuntimeInfo told the version
 * @param source      where it was read, with the address
 */
public record RuntimeIdentity(String version, String fileVersion, String commit, String source) {

    private static final byte[] MARK = "@(#)Version ".getBytes(StandardCharsets.US_ASCII);
    private static final Pattern SCCSID = Pattern.compile("@\\(#\\)Version ([0-9]+)\\.([0-9]+)\\.([0-9]+)\\.([0-9]+)(?: @Commit: ([0-9a-f]{7,40}))?");
    /** The module's mappings are read in blocks of this size, at most {@link #MAX_SCAN} bytes in all. */
    private static final int BLOCK = 1 << 20;
    private static final long MAX_SCAN = 1L << 30;
    private static final byte[] RUNTIME_INFO_SIGNATURE = "DotNetRuntimeInfo\0".getBytes(StandardCharsets.US_ASCII);
    /** DotNetRuntimeInfo (runtimeinfo.h): Version int32 at 20, RuntimeVersion int32[4] at 96 (since version 2). */
    private static final int RUNTIME_INFO_VERSION = 20;
    private static final int RUNTIME_INFO_RUNTIME_VERSION = 96;

    /** Reads the identity from the module's memory: the sccsid string, else DotNetRuntimeInfo; empty when neither is there. */
    public static Optional<RuntimeIdentity> read(Memory memory, LocatedRuntime runtime) {
        Optional<RuntimeIdentity> sccsid = sccsid(memory, runtime);
        return sccsid.isPresent() ? sccsid : runtimeInfo(memory, runtime);
    }

    private static Optional<RuntimeIdentity> sccsid(Memory memory, LocatedRuntime runtime) {
        long scanned = 0;
        for (MappedFile f : runtime.mappings()) {
            for (MemoryRange r : memory.ranges()) {
                long start = Math.max(r.start(), f.start());
                long end = Math.min(r.end(), f.end());
                for (long a = start; a < end && scanned < MAX_SCAN; a += BLOCK - 256) {
                    int n = (int) Math.min(BLOCK, end - a);
                    byte[] block;
                    try {
                        block = memory.readBytes(a, n);
                    } catch (MissingMemoryException | IllegalArgumentException e) {
                        continue;
                    }
                    scanned += n;
                    int at = indexOf(block, MARK);
                    if (at >= 0) {
                        int len = Math.min(160, block.length - at);
                        String text = new String(block, at, len, StandardCharsets.ISO_8859_1);
                        Matcher m = SCCSID.matcher(text);
                        if (m.lookingAt()) {
                            String file = m.group(1) + "." + m.group(2) + "." + m.group(3) + "." + m.group(4);
                            String version = m.group(1) + "." + m.group(2) + "." + Integer.parseInt(m.group(3)) / 100;
                            return Optional.of(new RuntimeIdentity(version, file, m.group(5) == null ? "" : m.group(5),
                                    String.format("the sccsid string at 0x%x in %s", a + at, runtime.module().fileName())));
                        }
                    }
                    if (n < BLOCK) {
                        break;
                    }
                }
            }
        }
        return Optional.empty();
    }

    private static int indexOf(byte[] data, byte[] what) {
        outer:
        for (int i = 0; i + what.length <= data.length; i++) {
            for (int j = 0; j < what.length; j++) {
                if (data[i + j] != what[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private static Optional<RuntimeIdentity> runtimeInfo(Memory memory, LocatedRuntime runtime) {
        Optional<Long> info = runtime.exports().apply("DotNetRuntimeInfo");
        if (info.isEmpty()) {
            return Optional.empty();
        }
        try {
            long a = info.get();
            if (!java.util.Arrays.equals(memory.readBytes(a, RUNTIME_INFO_SIGNATURE.length), RUNTIME_INFO_SIGNATURE)
                    || memory.readInt(a + RUNTIME_INFO_VERSION) < 2) {
                return Optional.empty();
            }
            int[] v = new int[4];
            for (int i = 0; i < 4; i++) {
                v[i] = memory.readInt(a + RUNTIME_INFO_RUNTIME_VERSION + 4L * i);
            }
            return Optional.of(new RuntimeIdentity(v[0] + "." + v[1] + "." + v[2] / 100, v[0] + "." + v[1] + "." + v[2] + "." + v[3], "",
                    String.format("DotNetRuntimeInfo at 0x%x (RuntimeVersion; no commit)", a)));
        } catch (MissingMemoryException e) {
            return Optional.empty();
        }
    }

    /** The major version, e.g. 10. */
    public int major() {
        return Integer.parseInt(version.substring(0, version.indexOf('.')));
    }
}
