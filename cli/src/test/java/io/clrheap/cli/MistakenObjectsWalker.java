package io.clrheap.cli;

import io.clrheap.walker.DumpSession;
import io.clrheap.walker.Dumps;
import io.clrheap.walker.heap.SegmentKind;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * A heap walker that prints {@code walk --objects} lines ({@code 0xADDRESS 0xMT SIZE}) with the mistakes it is told to
 * make, one or several at once, for conform to catch each: {@code MistakenObjectsWalker MISTAKE[,MISTAKE...] DUMP}.
 * It reads the dump as clrheap does, so every difference conform reports comes from a mistake named.
 */
public final class MistakenObjectsWalker {

    /** The mistakes. */
    enum Mistake {
        /** Reports every size rounded up to 8 bytes, as the naive walker does: a string of 22 bytes is reported as 24. */
        ROUNDS_SIZES_UP,
        /** Walks the small object heap's and the pinned heap's regions but not the large object heap's. */
        SKIPS_THE_LOH
    }

    private MistakenObjectsWalker() {
    }

    public static void main(String[] args) throws Exception {
        Set<Mistake> mistakes = EnumSet.noneOf(Mistake.class);
        for (String m : args[0].split(",")) {
            mistakes.add(Mistake.valueOf(m.toUpperCase(Locale.ROOT).replace('-', '_')));
        }
        BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16);
        try (DumpSession session = Dumps.open(Path.of(args[1]))) {
            session.walk((address, mt, size, region) -> {
                if (mistakes.contains(Mistake.SKIPS_THE_LOH) && region.kind() == SegmentKind.LOH) {
                    return;
                }
                long printed = mistakes.contains(Mistake.ROUNDS_SIZES_UP) ? (size + 7) & ~7L : size;
                try {
                    out.write(String.format(Locale.ROOT, "0x%x 0x%x %d%n", address, mt, printed));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
        out.flush();
    }
}
