package io.clrheap.emulator.gc;

import io.clrheap.emulator.process.Process;
import io.clrheap.emulator.truth.FieldTruth;
import io.clrheap.emulator.truth.GroundTruth;
import io.clrheap.value.ElementType;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The values of the fields that are no references, written once every object is in place (as {@link ReferenceWriter}
 * writes the references: an object placed over swept space finds old bytes there): one pass over the objects in
 * address order, deterministic from the scenario's seed. Booleans are 0 or 1, characters come from a mix of scripts,
 * integers of every width span their range (small values one time in two), floating-point values have a few decimals.
 */
final class FieldValueWriter {

    /** Characters a {@code char} field holds: ASCII and beyond (Latin-1, Greek, Cyrillic, CJK, symbols). */
    private static final String CHARS = "AZaz09_éßΩλЖя中文€✓";

    private final Process process;
    private final Map<Long, List<FieldTruth>> fields;
    private final Random random;

    FieldValueWriter(Process process, Map<Long, List<FieldTruth>> fields, Random random) {
        this.process = process;
        this.fields = fields;
        this.random = random;
    }

    void write() {
        if (fields.isEmpty()) {
            return;
        }
        var memory = process.memory();
        process.truth().forEachObject((address, mt, size, generation, heap, kind) -> {
            List<FieldTruth> list = kind == GroundTruth.Kind.OBJECT ? fields.get(mt) : null;
            if (list == null) {
                return;
            }
            for (FieldTruth f : list) {
                long at = address + f.offset();
                switch (f.storedType()) {
                    case ElementType.BOOLEAN -> memory.writeByte(at, (byte) random.nextInt(2));
                    case ElementType.I1, ElementType.U1 -> memory.writeByte(at, (byte) random.nextInt());
                    case ElementType.CHAR -> memory.writeShort(at, (short) CHARS.charAt(random.nextInt(CHARS.length())));
                    case ElementType.I2, ElementType.U2 -> memory.writeShort(at, (short) random.nextInt());
                    case ElementType.I4, ElementType.U4 -> memory.writeInt(at, random.nextBoolean() ? random.nextInt(100) : random.nextInt());
                    case ElementType.I8, ElementType.U8 -> memory.writeLong(at, random.nextBoolean() ? random.nextInt(100_000) : random.nextLong());
                    case ElementType.R4 -> memory.writeInt(at, Float.floatToIntBits((random.nextInt(2_000_000) - 1_000_000) / 100f));
                    case ElementType.R8 -> memory.writeLong(at, Double.doubleToLongBits((random.nextLong(2_000_000_000L) - 1_000_000_000L) / 1000.0));
                    default -> {
                        // references (ReferenceWriter writes them) and structs (their fields are rows of their own)
                    }
                }
            }
        });
    }
}
