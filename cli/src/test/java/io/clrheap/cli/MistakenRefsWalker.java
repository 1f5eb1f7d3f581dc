package io.clrheap.cli;

import io.clrheap.layout.RuntimeLayout;
import io.clrheap.memory.Memory;
import io.clrheap.walker.DumpSession;
import io.clrheap.walker.Dumps;
import io.clrheap.walker.graph.GcDescriptor;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.walk.ObjectVisitor;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A heap walker that prints {@code walk --refs} lines but decodes GC descriptors with one of the mistakes walker
 * authors make, for conform to catch: {@code MistakenRefsWalker MISTAKE DUMP}. It reads the dump as clrheap does and
 * makes exactly one mistake, so every difference conform reports comes from it.
 */
public final class MistakenRefsWalker {

    /** The mistakes. */
    enum Mistake {
        /** Takes a value-type array's descriptor (a negative series count, repeating items) as holding no references. */
        IGNORES_REPEATING_SERIES,
        /** Stops one word early: the object's last word (at size − 16, before the next object's header) is never read. */
        DROPS_THE_LAST_WORD,
        /** Reads the highest series only (the lowest offsets), so a type whose references are in several runs loses the others. */
        READS_ONLY_THE_FIRST_SERIES
    }

    private MistakenRefsWalker() {
    }

    public static void main(String[] args) throws Exception {
        Mistake mistake = Mistake.valueOf(args[0].toUpperCase(Locale.ROOT).replace('-', '_'));
        BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16);
        try (DumpSession session = Dumps.open(Path.of(args[1]))) {
            Memory memory = session.memory();
            RuntimeLayout layout = session.target().layout();
            long flagsOffset = layout.offset("MethodTable", "MTFlags");
            long baseSizeOffset = layout.offset("MethodTable", "BaseSize");
            long containsPointers = layout.constant("method_table.flags.contains_gc_pointers");
            long componentMask = layout.constant("method_table.flags.component_size_mask");
            long hasComponentSize = layout.constant("method_table.flags.has_component_size");
            long free = session.heap().freeMethodTable();
            session.walker().walk(new ObjectVisitor() {
                @Override
                public void object(long address, long mt, long size, Region region) {
                    if (mt == free) {
                        return;
                    }
                    try {
                        long flags = memory.readU32(mt + flagsOffset);
                        if ((flags & containsPointers) == 0) {
                            return;
                        }
                        int component = (flags & hasComponentSize) != 0 ? (int) (flags & componentMask) : 0;
                        GcDescriptor d = GcDescriptor.read(memory, mt, memory.readU32(mt + baseSizeOffset), component);
                        if (d.check(size) != null || (mistake == Mistake.IGNORES_REPEATING_SERIES && d.repeating())) {
                            return;
                        }
                        List<Long> slots = new ArrayList<>();
                        d.forEachSlot(size, slots::add);
                        StringBuilder line = new StringBuilder();
                        long previous = -1;
                        for (long offset : slots) {
                            if (mistake == Mistake.DROPS_THE_LAST_WORD && offset >= size - 16) {
                                continue;
                            }
                            // a gap between slots is where one series ends and the next starts (a repeating one has no series to leave out)
                            if (mistake == Mistake.READS_ONLY_THE_FIRST_SERIES && !d.repeating() && previous >= 0 && offset != previous + 8) {
                                break;
                            }
                            previous = offset;
                            long to = memory.readLong(address + offset);
                            if (to != 0) {
                                line.append(line.isEmpty() ? String.format("0x%x:", address) : "").append(String.format(" 0x%x", to));
                            }
                        }
                        if (!line.isEmpty()) {
                            out.append(line).append('\n');
                        }
                    } catch (GcDescriptor.Malformed | RuntimeException e) {
                        System.err.println("skipped 0x" + Long.toHexString(address) + ": " + e.getMessage());
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
            });
        }
        out.flush();
    }
}
